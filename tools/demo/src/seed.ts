import type { ApiClient } from '@media/client';
import { all, anonymous, login, ok } from './api';
import {
  CLIENTS,
  COMMISSION_CATEGORIES,
  CORRESPONDENTS,
  GROUPS,
  MEDIA,
  SLOT_TIMES,
  STORY_CATEGORIES,
  USERS,
  demoUuid,
  email,
  password,
  sequence,
} from './data';

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString();
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const money = (n: number) => n.toFixed(2);

/** What the seeder made and what it found already there, per kind. */
export class Report {
  readonly rows = new Map<string, { made: number; found: number }>();
  made(kind: string, n = 1) {
    this.row(kind).made += n;
  }
  found(kind: string, n = 1) {
    this.row(kind).found += n;
  }
  private row(kind: string) {
    let row = this.rows.get(kind);
    if (!row) this.rows.set(kind, (row = { made: 0, found: 0 }));
    return row;
  }
  get madeTotal() {
    return [...this.rows.values()].reduce((n, r) => n + r.made, 0);
  }
}

export interface SeedOptions {
  baseUrl: string;
  admin: { email: string; password: string };
  now?: Date;
  log?: (line: string) => void;
}

/**
 * Fills a running system with the demo data set, through the public API. Every step first
 * looks for what it would make (by name, email, reference or a derived id), so a second run
 * makes nothing.
 */
export async function seed(options: SeedOptions): Promise<Report> {
  const { baseUrl } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const report = new Report();
  const root = await login(baseUrl, options.admin.email, options.admin.password);

  // Groups and users (acl).
  log('users and groups');
  const groups = new Map<string, string>();
  for (const g of await all(
    (cursor) => root.GET('/acl/api/v1/groups', { params: { query: { cursor, page_size: 100 } } }),
    'list groups',
  )) {
    groups.set(g.name, g.id);
  }
  for (const name of GROUPS) {
    if (groups.has(name)) {
      report.found('groups');
      continue;
    }
    const g = await ok(root.POST('/acl/api/v1/groups', { body: { name } }), `create group ${name}`);
    groups.set(name, g.id);
    report.made('groups');
  }
  const users = new Map<string, string>();
  for (const u of await all(
    (cursor) => root.GET('/acl/api/v1/users', { params: { query: { cursor, page_size: 100 } } }),
    'list users',
  )) {
    users.set(u.email, u.id);
  }
  for (const u of USERS) {
    if (users.has(email(u.key))) {
      report.found('users');
      continue;
    }
    const made = await ok(
      root.POST('/acl/api/v1/users', {
        body: {
          email: email(u.key),
          password: password(u.key),
          first_name: u.first,
          last_name: u.last,
          employee_number: u.employee ?? null,
          roles: u.roles,
          groups: u.groups.map((g) => groups.get(g)!),
          manager_id: u.manager ? users.get(email(u.manager))! : null,
          date_joined: iso(new Date(now.getTime() - u.joined * DAY)),
        },
      }),
      `create user ${email(u.key)}`,
    );
    users.set(made.email, made.id);
    report.made('users');
  }
  const id = (key: string) => users.get(email(key))!;
  const as = async (key: string) => login(baseUrl, email(key), password(key));
  const admin = await as('admin');
  const editor = await as('editor');
  const sales = await as('sales');
  const finance = await as('finance');

  // Correspondents: invited by an editor; some accept.
  log('correspondents');
  const known = new Set(
    (
      await all(
        (cursor) =>
          editor.GET('/acl/api/v1/auth/correspondents/invite', {
            params: { query: { cursor, page_size: 100 } },
          }),
        'list correspondents',
      )
    ).map((c) => c.email),
  );
  for (const c of CORRESPONDENTS) {
    if (known.has(email(c.key)) || users.has(email(c.key))) {
      report.found('correspondents');
      continue;
    }
    const invited = await ok(
      editor.POST('/acl/api/v1/auth/correspondents/invite', {
        body: { email: email(c.key), first_name: c.first, last_name: c.last, phone_number: c.phone },
      }),
      `invite ${email(c.key)}`,
    );
    users.set(invited.email, invited.id);
    report.made('correspondents');
    if (c.accepts) {
      await ok(
        anonymous(baseUrl).POST('/acl/api/v1/auth/invitations/{token}/accept', {
          params: { path: { token: invited.invitation.token } },
          body: { password: password(c.key) },
        }),
        `accept the invitation of ${email(c.key)}`,
      );
      await ok(
        root.POST('/acl/api/v1/groups/{id}/members', {
          params: { path: { id: groups.get('Newsroom')! } },
          body: { user_id: invited.id },
        }),
        `add ${email(c.key)} to the newsroom`,
      );
      report.made('accepted invitations');
    }
  }

  // Story categories (content).
  log('story categories');
  const categories = new Set(
    (
      await all(
        (cursor) =>
          editor.GET('/content/api/v1/story-categories', { params: { query: { cursor, page_size: 100 } } }),
        'list story categories',
      )
    ).map((c) => c.name.toLowerCase()),
  );
  for (const [name, description] of STORY_CATEGORIES) {
    if (categories.has(name.toLowerCase())) {
      report.found('story categories');
      continue;
    }
    await ok(
      editor.POST('/content/api/v1/story-categories', { body: { name, description } }),
      `create category ${name}`,
    );
    report.made('story categories');
  }

  // Documents (uploaded by the demo admin, whose list the walkthrough reads).
  log('documents');
  const documents = new Map<string, string>();
  for (const d of await all(
    (cursor) => admin.GET('/documents/api/v1/documents', { params: { query: { cursor, page_size: 100 } } }),
    'list documents',
  )) {
    documents.set(d.filename, d.id);
  }
  const files: [string, string, string][] = [
    ...MEDIA.map(({ medium, channel }): [string, string, string] => [
      `rundown-${medium.toLowerCase()}.txt`,
      'text/plain',
      `${channel} rundown for ${year}-${String(month).padStart(2, '0')}\n`,
    ]),
    ['northwind-spring-spot.txt', 'text/plain', 'Script: Northwind Foods, 30 s spot\n'],
    ['contoso-launch-brief.txt', 'text/plain', 'Brief: Contoso Motors launch campaign\n'],
  ];
  for (const [filename, type, text] of files) {
    if (documents.has(filename)) {
      report.found('documents');
      continue;
    }
    const form = new FormData();
    form.append('file', new Blob([text], { type }), filename);
    const doc = await ok(
      admin.POST('/documents/api/v1/documents', {
        body: form as never,
        bodySerializer: (b: unknown) => b as FormData,
      }),
      `upload ${filename}`,
    );
    documents.set(filename, doc.id);
    report.made('documents');
  }

  // A month of lineups per medium, with slots every day and documents on the first ones.
  log('lineups');
  const first = new Date(Date.UTC(year, month - 1, 1));
  const last = new Date(Date.UTC(year, month, 0));
  for (const { medium, channel, shows } of MEDIA) {
    const existing = await ok(
      editor.GET('/content/api/v1/lineup', { params: { query: { medium, channel, month, year } } }),
      `find the ${medium} lineup`,
    );
    if (existing.results.length > 0) {
      report.found('lineups');
      continue;
    }
    const slots = [];
    for (let d = first.getTime(); d <= last.getTime(); d += DAY) {
      for (const [i, start_time] of SLOT_TIMES.entries()) {
        slots.push({
          air_date: isoDate(new Date(d)),
          start_time,
          duration_seconds: i === 2 ? 3600 : 1800,
          title: shows[i],
        });
      }
    }
    const schedule = await ok(
      editor.POST('/content/api/v1/lineup', {
        body: {
          medium,
          channel,
          month,
          year,
          title: `${channel} ${first.toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${year}`,
          effective_from: isoDate(first),
          effective_to: isoDate(last),
          metadata: { source: 'demo', timezone: 'UTC' },
          slots,
        },
      }),
      `create the ${medium} lineup`,
    );
    report.made('lineups');
    report.made('slots', slots.length);
    const page = await ok(
      editor.GET('/content/api/v1/lineup/{id}/slots', {
        params: { path: { id: schedule.id }, query: { page_size: 3 } },
      }),
      `list the ${medium} slots`,
    );
    for (const slot of page.results) {
      await ok(
        editor.POST('/content/api/v1/lineup/slots/{slot_id}/assets', {
          params: { path: { slot_id: slot.id } },
          body: { document_id: documents.get(`rundown-${medium.toLowerCase()}.txt`)! },
        }),
        'attach a rundown',
      );
      report.made('slot assets');
    }
  }

  // Tasks in every status; some overdue, some for the newsroom only.
  log('tasks');
  const hours = (h: number) => iso(new Date(now.getTime() + h * 3_600_000));
  const tasks: {
    key: string;
    code: string;
    name: string;
    priority: 'LOW' | 'MEDIUM' | 'HIGH' | 'URGENT';
    due: string | null;
    perms: string[];
    groups: string[];
    type: string;
    ref: string;
    then: ('claim' | 'start' | 'complete' | 'cancel')[];
  }[] = [
    {
      key: 'lineup-approval',
      code: 'approve_lineup',
      name: 'Approve the TV lineup',
      priority: 'HIGH',
      due: hours(72),
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
      due: hours(-30),
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
      due: hours(6),
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
      due: null,
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
      due: hours(-50),
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
      due: hours(48),
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
      due: hours(-4),
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
      due: hours(20),
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
      due: hours(-200),
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
      due: hours(-20),
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
      due: hours(-400),
      perms: ['tasks:claim'],
      groups: [],
      type: 'story',
      ref: 'summer-promo',
      then: ['cancel'],
    },
  ];
  for (const t of tasks) {
    const entity_id = demoUuid(`task:${t.key}`);
    const found = await ok(
      admin.GET('/assignment/api/v1/tasks', { params: { query: { entity_id } } }),
      `find task ${t.key}`,
    );
    if (found.results.length > 0) {
      report.found('tasks');
      continue;
    }
    const task = await ok(
      admin.POST('/assignment/api/v1/tasks', {
        body: {
          workflow_node_code: t.code,
          node_preview_name: t.name,
          node_instructions: `${t.name}. Leave a note in the newsroom room when done.`,
          priority: t.priority,
          due_at: t.due,
          required_permissions_snapshot: t.perms.map((code) => ({ code })),
          candidate_groups: t.groups.map((g) => groups.get(g)!),
          source_service: 'demo',
          entity_type: t.type,
          entity_id,
          entity_reference: t.ref,
          engine_request: null,
        },
      }),
      `create task ${t.key}`,
    );
    report.made('tasks');
    for (const step of t.then) {
      const params = { path: { task_id: task.id } };
      if (step === 'claim') {
        await ok(
          admin.POST('/assignment/api/v1/tasks/{task_id}/claim', { params, body: { user_id: id('editor') } }),
          `claim ${t.key}`,
        );
      } else {
        await ok(admin.POST(`/assignment/api/v1/tasks/{task_id}/${step}`, { params }), `${step} ${t.key}`);
      }
    }
  }

  // Clients and two years of deals (commercial).
  log('clients and deals');
  const random = sequence(2024);
  const clients = new Map<string, string>();
  for (const c of await all(
    (cursor) => sales.GET('/commercial/api/v1/clients', { params: { query: { cursor, page_size: 100 } } }),
    'list clients',
  )) {
    clients.set(c.name, c.id);
  }
  for (const [rank, [name, category]] of CLIENTS.entries()) {
    let clientId = clients.get(name);
    if (clientId) report.found('clients');
    else {
      clientId = (
        await ok(
          sales.POST('/commercial/api/v1/clients', { body: { name, category } }),
          `create client ${name}`,
        )
      ).id;
      clients.set(name, clientId);
      report.made('clients');
    }
    const deals = await ok(
      sales.GET('/commercial/api/v1/deals', { params: { query: { client_id: clientId, page_size: 1 } } }),
      `find deals of ${name}`,
    );
    if (deals.results.length > 0) {
      report.found('clients with deals');
      continue;
    }
    // Eight deals over the last two years, the last ones this year (before today).
    for (let i = 0; i < 8; i++) {
      const daysAgo =
        i < 3
          ? Math.floor(random() * Math.max(1, (now.getTime() - Date.UTC(year, 0, 1)) / DAY))
          : 60 + Math.floor(random() * 660);
      const status = i === 5 ? 'LOST' : i === 6 ? 'PENDING' : 'WON';
      const size = (10 - rank) * 4_000 + Math.floor(random() * 20_000);
      await ok(
        sales.POST('/commercial/api/v1/deals', {
          body: {
            client_id: clientId,
            contracted_revenue: money(size),
            contract_date: isoDate(new Date(now.getTime() - daysAgo * DAY)),
            status,
          },
        }),
        `create a deal of ${name}`,
      );
      report.made('deals');
    }
  }

  // Bookings in every status with lines and assets (inventory).
  log('bookings');
  const bookings = new Set(
    (
      await all(
        (cursor) =>
          sales.GET('/inventory/api/v1/bookings', { params: { query: { cursor, page_size: 100 } } }),
        'list bookings',
      )
    ).map((b) => b.reference),
  );
  const statuses = [
    'CONFIRMED',
    'CONFIRMED',
    'DRAFT',
    'CONFIRMED',
    'CANCELLED',
    'CONFIRMED',
    'DRAFT',
    'CONFIRMED',
    'CANCELLED',
    'DRAFT',
  ] as const;
  const platforms = [
    ['TV', 'Prime time', 'Channel One'],
    ['RADIO', 'Drive time', 'City FM'],
    ['DIGITAL', 'Pre-roll', 'Web Live'],
  ] as const;
  for (const [i, [client]] of CLIENTS.entries()) {
    const reference = `DEMO-B-${String(i + 1).padStart(3, '0')}`;
    if (bookings.has(reference)) {
      report.found('bookings');
      continue;
    }
    const status = statuses[i];
    const lines = platforms.slice(0, 1 + (i % 3)).map(([platform, category, channel], j) => {
      const spots = 10 + ((i * 7 + j * 5) % 40);
      const rate = spots * (platform === 'TV' ? 1500 : platform === 'RADIO' ? 400 : 250);
      return {
        platform,
        category,
        channel,
        start_date: isoDate(first),
        end_date: isoDate(last),
        spots,
        rate_card_amount: money(rate),
        booked_amount: money(rate * (0.75 + ((i + j) % 4) * 0.05)),
      };
    });
    const booking = await ok(
      sales.POST('/inventory/api/v1/bookings', {
        body: {
          reference,
          client_name: client,
          agency: i % 2 ? 'Blue Door Media' : null,
          currency: 'USD',
          status: status === 'CANCELLED' ? 'DRAFT' : status,
          lines,
        },
      }),
      `create booking ${reference}`,
    );
    report.made('bookings');
    report.made('booking lines', booking.lines.length);
    for (const line of booking.lines) {
      const document_id =
        i === 0
          ? documents.get('northwind-spring-spot.txt')!
          : i === 1
            ? documents.get('contoso-launch-brief.txt')!
            : null;
      await ok(
        sales.POST('/inventory/api/v1/bookings/{order_id}/lines/{line_id}/assets', {
          params: { path: { order_id: booking.id, line_id: line.id } },
          body: {
            name: `${client} ${line.platform.toLowerCase()} creative`,
            document_id,
            notes: document_id ? 'Approved by the client' : 'Awaiting the creative',
          },
        }),
        `add an asset to ${reference}`,
      );
      report.made('line assets');
    }
    if (status === 'CANCELLED') {
      await ok(
        sales.PATCH('/inventory/api/v1/bookings/{order_id}', {
          params: { path: { order_id: booking.id } },
          body: { status: 'CANCELLED' },
        }),
        `cancel ${reference}`,
      );
    }
  }

  // Commission plans, targets and collections for this year (payment).
  log('commissions');
  const plans = new Set(
    (
      await all(
        (cursor) =>
          finance.GET('/payment/api/v1/commissions/plans', { params: { query: { cursor, page_size: 100 } } }),
        'list plans',
      )
    ).map((p) => p.category),
  );
  for (const category of COMMISSION_CATEGORIES) {
    if (plans.has(category)) {
      report.found('commission plans');
      continue;
    }
    await ok(
      finance.POST('/payment/api/v1/commissions/plans', {
        body: {
          category,
          tiers: [
            { min_achievement_pct: '0', rate_pct: '1.5' },
            { min_achievement_pct: '80', rate_pct: '3' },
            { min_achievement_pct: '100', rate_pct: '5' },
            { min_achievement_pct: '120', rate_pct: '7.5' },
          ],
        },
      }),
      `create the ${category} plan`,
    );
    report.made('commission plans');
  }
  const bms = ['bm1', 'bm2', 'bm3'];
  for (const [b, bm] of bms.entries()) {
    for (const [c, category] of COMMISSION_CATEGORIES.entries()) {
      const bm_id = id(bm);
      const targets = await ok(
        finance.GET('/payment/api/v1/commissions/targets', {
          params: { query: { bm_id, category, year, page_size: 100 } },
        }),
        'list targets',
      );
      const targetOf = (m: number) => 40_000 + b * 10_000 + c * 15_000 + m * 500;
      const have = new Set(targets.results.map((t) => t.month));
      for (let m = 1; m <= 12; m++) {
        if (have.has(m)) {
          report.found('targets');
          continue;
        }
        await ok(
          finance.POST('/payment/api/v1/commissions/targets', {
            body: { bm_id, category, month: m, year, target_amount: money(targetOf(m)) },
          }),
          'set a target',
        );
        report.made('targets');
      }
      const collections = await ok(
        finance.GET('/payment/api/v1/collections', { params: { query: { bm_id, category, page_size: 1 } } }),
        'list collections',
      );
      if (collections.results.length > 0) {
        report.found('BMs with collections');
        continue;
      }
      // Two collections a month up to today; together 70% to 130% of the month's target.
      for (let m = 1; m <= month; m++) {
        const share = 0.7 + ((b * 3 + c * 5 + m) % 7) * 0.1;
        const lastDay = m === month ? now.getUTCDate() : new Date(Date.UTC(year, m, 0)).getUTCDate();
        for (const part of [0.45, 0.55]) {
          const day = Math.max(1, Math.round(lastDay * (part === 0.45 ? 0.3 : 1)));
          let at = new Date(Date.UTC(year, m - 1, day, 9 + b));
          if (at > now) at = new Date(now.getTime() - 60_000);
          await ok(
            finance.POST('/payment/api/v1/collections', {
              body: { bm_id, category, amount: money(targetOf(m) * share * part), collected_at: iso(at) },
            }),
            'record a collection',
          );
          report.made('collections');
        }
      }
    }
  }

  // Group rooms with messages (chat-notifications).
  log('rooms');
  const rooms = new Set(
    (
      await all(async (cursor) => {
        // chat-notifications envelopes its pages: `{success, message, data: {results, next}}`.
        const answer = await admin.GET('/api/v1/chat/rooms', {
          params: { query: { cursor, page_size: 100 } },
        });
        return { ...answer, data: answer.data?.data };
      }, 'list rooms')
    ).map((r) => r.name),
  );
  const roomPlan = [
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
  const speakers: Record<string, ApiClient> = { admin, editor, sales };
  for (const room of roomPlan) {
    if (rooms.has(room.name)) {
      report.found('rooms');
      continue;
    }
    const made = await ok(
      admin.POST('/api/v1/chat/rooms', {
        body: {
          name: room.name,
          group_id: groups.get(room.group)!,
          member_ids: room.members.map((m) => users.get(email(m))!).filter(Boolean),
          document_id: null,
        },
      }),
      `create room ${room.name}`,
    );
    report.made('rooms');
    for (const [who, body] of room.messages) {
      await ok(
        speakers[who].POST('/api/v1/chat/rooms/{id}/messages', {
          params: { path: { id: made.data.id } },
          body: { body },
        }),
        'post a message',
      );
      report.made('messages');
    }
  }

  // Notification preferences (upserts: a second run changes nothing).
  log('notification preferences');
  const preferences: [
    ApiClient,
    { notification_type: string; channel: 'websocket' | 'email'; enabled: boolean }[],
  ][] = [
    [
      admin,
      [
        { notification_type: '*', channel: 'email', enabled: false },
        { notification_type: 'assignment.task.escalated', channel: 'email', enabled: true },
      ],
    ],
    [
      editor,
      [
        { notification_type: '*', channel: 'websocket', enabled: true },
        { notification_type: 'chat.message.created', channel: 'email', enabled: false },
      ],
    ],
    [sales, [{ notification_type: 'assignment.task.claimed', channel: 'websocket', enabled: false }]],
  ];
  for (const [client, body] of preferences) {
    await ok(client.PUT('/api/v1/notifications/preferences', { body }), 'set notification preferences');
    report.found('preference sets');
  }
  return report;
}
