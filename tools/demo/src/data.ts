import { createHash } from 'node:crypto';

/** Every demo user's email ends with this, so the demo data is easy to tell (and to find). */
export const DEMO_DOMAIN = 'demo.media.localhost';

export interface DemoUser {
  key: string;
  first: string;
  last: string;
  roles: string[];
  groups: string[];
  /** Key of the user's manager. */
  manager?: string;
  /** Days ago the user joined (spread over the year, so the growth series has a shape). */
  joined: number;
  employee?: string;
}

export const email = (key: string) => `${key}@${DEMO_DOMAIN}`;
/** Demo passwords are printed and documented: this is demo data, never a real installation's. */
export const password = (key: string) => `demo-password-${key}`;

export const GROUPS = ['Newsroom', 'Sales team', 'Management'] as const;

export const USERS: DemoUser[] = [
  {
    key: 'admin',
    first: 'Ada',
    last: 'Adeyemi',
    roles: ['ADMIN'],
    groups: ['Newsroom', 'Sales team', 'Management'],
    joined: 360,
    employee: 'E-1001',
  },
  {
    key: 'editor',
    first: 'Elena',
    last: 'Ortiz',
    roles: ['EDITOR'],
    groups: ['Newsroom'],
    joined: 330,
    employee: 'E-1002',
  },
  {
    key: 'editor2',
    first: 'Marcus',
    last: 'Webb',
    roles: ['EDITOR'],
    groups: ['Newsroom'],
    joined: 200,
    employee: 'E-1003',
  },
  {
    key: 'sales',
    first: 'Sofia',
    last: 'Lindqvist',
    roles: ['SALES'],
    groups: ['Sales team'],
    joined: 300,
    employee: 'E-1004',
  },
  {
    key: 'finance',
    first: 'Farid',
    last: 'Haddad',
    roles: ['FINANCE'],
    groups: ['Management'],
    joined: 280,
    employee: 'E-1005',
  },
  {
    key: 'cm',
    first: 'Claire',
    last: 'Moreau',
    roles: ['CM'],
    groups: ['Sales team', 'Management'],
    joined: 250,
    employee: 'E-1006',
  },
  {
    key: 'bm1',
    first: 'Bilal',
    last: 'Khan',
    roles: ['BM'],
    groups: ['Sales team'],
    manager: 'cm',
    joined: 180,
    employee: 'E-1007',
  },
  {
    key: 'bm2',
    first: 'Beatriz',
    last: 'Santos',
    roles: ['BM'],
    groups: ['Sales team'],
    manager: 'cm',
    joined: 120,
    employee: 'E-1008',
  },
  {
    key: 'bm3',
    first: 'Ben',
    last: 'Okafor',
    roles: ['BM'],
    groups: ['Sales team'],
    manager: 'cm',
    joined: 60,
    employee: 'E-1009',
  },
  { key: 'viewer', first: 'Victor', last: 'Nguyen', roles: [], groups: [], joined: 20 },
];

/** Invited correspondents; the first two accept their invitation, the others stay INVITED. */
export const CORRESPONDENTS = [
  { key: 'corr.lagos', first: 'Ngozi', last: 'Eze', phone: '+234 801 555 0101', accepts: true },
  { key: 'corr.lisbon', first: 'Tiago', last: 'Ferreira', phone: '+351 21 555 0102', accepts: true },
  { key: 'corr.manila', first: 'Andrea', last: 'Reyes', phone: '+63 2 555 0103', accepts: false },
  { key: 'corr.quito', first: 'Lucia', last: 'Paredes', phone: null, accepts: false },
];

export const STORY_CATEGORIES = [
  ['Breaking news', 'Stories that go on air as they happen'],
  ['Business', 'Markets, companies and the economy'],
  ['Culture', 'Arts, film, music and books'],
  ['Politics', 'Government, elections and policy'],
  ['Science', 'Research, health and the environment'],
  ['Sport', 'Results, transfers and features'],
  ['Technology', 'Products, platforms and the people behind them'],
  ['Weather', 'Forecasts and warnings'],
] as const;

export const MEDIA = [
  {
    medium: 'TV',
    channel: 'Channel One',
    shows: ['Morning Briefing', 'Midday News', 'Prime Time', 'Late Review'],
  },
  { medium: 'RADIO', channel: 'City FM', shows: ['Drive Time', 'The Hour', 'Evening Talk', 'Night Shift'] },
  { medium: 'DIGITAL', channel: 'Web Live', shows: ['Live Blog', 'Explainer', 'Podcast Drop', 'Newsletter'] },
] as const;
export const SLOT_TIMES = ['07:00', '12:30', '19:00', '22:45'] as const;

export const CLIENTS = [
  ['Northwind Foods', 'FMCG'],
  ['Contoso Motors', 'Automotive'],
  ['Fabrikam Bank', 'Finance'],
  ['Tailspin Airlines', 'Travel'],
  ['Litware Telecom', 'Telecom'],
  ['Adventure Works', 'Retail'],
  ['Wide World Importers', 'Retail'],
  ['Proseware Health', 'Health'],
  ['Blue Yonder Insurance', 'Finance'],
  ['Coho Vineyard', 'FMCG'],
] as const;

/** Commission categories (one plan each), shared by targets and collections. */
export const COMMISSION_CATEGORIES = ['Broadcast', 'Digital'] as const;

/** A UUID derived from a name, so a demo row can be found again by it (v5 layout). */
export function demoUuid(name: string): string {
  const h = createHash('sha256').update(`media-demo:${name}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A small deterministic pseudo-random sequence, so every run plans the same data. */
export function sequence(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A task of the demo, and what happens to it once made. */
export interface DemoTask {
  key: string;
  code: string;
  name: string;
  priority: 'LOW' | 'MEDIUM' | 'HIGH' | 'URGENT';
  /** Due this many hours from the run (negative: overdue), or never. */
  due_in_hours: number | null;
  perms: string[];
  groups: string[];
  type: string;
  ref: string;
  then: ('claim' | 'start' | 'complete' | 'cancel')[];
}

/** Tasks in every status; some overdue, some for the newsroom only. */
export const TASKS: DemoTask[] = [
  {
    key: 'lineup-approval',
    code: 'approve_lineup',
    name: 'Approve the TV lineup',
    priority: 'HIGH',
    due_in_hours: 72,
    perms: ['lineup:write'],
    groups: [],
    type: 'schedule',
    ref: 'Channel One',
    then: [],
  },
  {
    key: 'story-review',
    code: 'review_story',
    name: 'Review the harbour strike story',
    priority: 'MEDIUM',
    due_in_hours: -30,
    perms: ['tasks:claim'],
    groups: ['Newsroom'],
    type: 'story',
    ref: 'harbour-strike',
    then: [],
  },
  {
    key: 'fact-check',
    code: 'fact_check',
    name: 'Fact-check the budget explainer',
    priority: 'URGENT',
    due_in_hours: 6,
    perms: ['tasks:claim'],
    groups: ['Newsroom'],
    type: 'story',
    ref: 'budget-explainer',
    then: [],
  },
  {
    key: 'translate',
    code: 'translate',
    name: 'Translate the election brief',
    priority: 'LOW',
    due_in_hours: null,
    perms: ['tasks:claim'],
    groups: [],
    type: 'story',
    ref: 'election-brief',
    then: [],
  },
  {
    key: 'spot-check',
    code: 'check_spot',
    name: 'Check the Northwind spot',
    priority: 'MEDIUM',
    due_in_hours: -50,
    perms: ['tasks:claim'],
    groups: [],
    type: 'booking',
    ref: 'DEMO-B-001',
    then: ['claim'],
  },
  {
    key: 'caption',
    code: 'caption',
    name: 'Caption the culture podcast',
    priority: 'LOW',
    due_in_hours: 48,
    perms: ['tasks:claim'],
    groups: ['Newsroom'],
    type: 'story',
    ref: 'culture-podcast',
    then: ['claim'],
  },
  {
    key: 'interview',
    code: 'edit_interview',
    name: 'Edit the minister interview',
    priority: 'HIGH',
    due_in_hours: -4,
    perms: ['tasks:claim'],
    groups: [],
    type: 'story',
    ref: 'minister-interview',
    then: ['claim', 'start'],
  },
  {
    key: 'graphics',
    code: 'graphics',
    name: 'Weather graphics for the weekend',
    priority: 'MEDIUM',
    due_in_hours: 20,
    perms: ['tasks:claim'],
    groups: [],
    type: 'story',
    ref: 'weekend-weather',
    then: ['claim', 'start'],
  },
  {
    key: 'archive',
    code: 'archive',
    name: 'Archive last month’s rundowns',
    priority: 'LOW',
    due_in_hours: -200,
    perms: ['tasks:claim'],
    groups: [],
    type: 'schedule',
    ref: 'archive',
    then: ['claim', 'complete'],
  },
  {
    key: 'proofread',
    code: 'proofread',
    name: 'Proofread the sports round-up',
    priority: 'MEDIUM',
    due_in_hours: -20,
    perms: ['tasks:claim'],
    groups: [],
    type: 'story',
    ref: 'sports-roundup',
    then: ['claim', 'start', 'complete'],
  },
  {
    key: 'old-promo',
    code: 'promo',
    name: 'Cut the summer promo',
    priority: 'LOW',
    due_in_hours: -400,
    perms: ['tasks:claim'],
    groups: [],
    type: 'story',
    ref: 'summer-promo',
    then: ['cancel'],
  },
];

/** Group rooms and their first messages (by the demo user's key). */
export const ROOMS = [
  {
    name: 'Newsroom desk',
    group: 'Newsroom',
    members: ['editor', 'editor2', 'corr.lagos', 'corr.lisbon'],
    messages: [
      ['admin', 'Morning all: the harbour strike leads at 07:00.'],
      ['editor', 'Ngozi is filing from the port at 06:30.'],
      ['admin', 'Budget explainer needs a fact-check before noon.'],
      ['editor', 'On it after the briefing.'],
    ],
  },
  {
    name: 'Sales floor',
    group: 'Sales team',
    members: ['sales', 'cm', 'bm1', 'bm2', 'bm3'],
    messages: [
      ['sales', 'Northwind confirmed the prime-time package.'],
      ['admin', 'Great. Contoso still in draft?'],
      ['sales', 'Yes, waiting for their launch date.'],
    ],
  },
] as const;
