/** The nine apps, their public path prefix and default port (docs/api/contract.md §0). */
export const APPS = {
  gateway: { prefix: '', port: 3000 },
  content: { prefix: 'content', port: 3001 },
  assignment: { prefix: 'assignment', port: 3002 },
  inventory: { prefix: 'inventory', port: 3003 },
  commercial: { prefix: 'commercial', port: 3004 },
  payment: { prefix: 'payment', port: 3005 },
  acl: { prefix: 'acl', port: 3006 },
  documents: { prefix: 'documents', port: 3007 },
  'chat-notifications': { prefix: 'api', port: 3008 },
} as const;

export type AppName = keyof typeof APPS;
export type ServiceName = Exclude<AppName, 'gateway'>;
export const SERVICE_NAMES = Object.keys(APPS).filter((n) => n !== 'gateway') as ServiceName[];

/** `chat-notifications` -> `CHAT_NOTIFICATIONS`, for `<APP>_PORT` and `<APP>_URL` variables. */
export function envPrefix(app: AppName): string {
  return app.toUpperCase().replace(/-/g, '_');
}

/** Permissions of docs/api/contract.md §1. */
export const Permissions = {
  lineupRead: 'lineup:read',
  lineupWrite: 'lineup:write',
  storyCategoriesRead: 'story-categories:read',
  storyCategoriesWrite: 'story-categories:write',
  tasksRead: 'tasks:read',
  tasksClaim: 'tasks:claim',
  tasksAssign: 'tasks:assign',
  bookingsRead: 'bookings:read',
  bookingsWrite: 'bookings:write',
  analyticsSales: 'analytics:sales',
  analyticsRevenue: 'analytics:revenue',
  analyticsGrowth: 'analytics:growth',
  commissionsRead: 'commissions:read',
  commissionsReadAll: 'commissions:read-all',
  documentsWrite: 'documents:write',
  documentsDelete: 'documents:delete',
  correspondentsRead: 'correspondents:read',
  correspondentsInvite: 'correspondents:invite',
  usersAdmin: 'users:admin',
  webhooksAdmin: 'webhooks:admin',
  auditRead: 'audit:read',
} as const;
export type Permission = (typeof Permissions)[keyof typeof Permissions];

/** A role of docs/api/contract.md §1: its code, its name and exactly its permissions. */
export interface ContractRole {
  code: string;
  name: string;
  permissions: readonly (Permission | '*')[];
}

/**
 * The role table of docs/api/contract.md §1, the one source the tests and benches read (acl's seed
 * migration keeps its own literal copy, frozen, and a unit spec holds the two equal).
 */
export const CONTRACT_ROLES: readonly ContractRole[] = [
  { code: 'ADMIN', name: 'Administrator', permissions: ['*'] },
  {
    code: 'EDITOR',
    name: 'Editor',
    permissions: [
      Permissions.lineupRead,
      Permissions.lineupWrite,
      Permissions.storyCategoriesRead,
      Permissions.storyCategoriesWrite,
      Permissions.tasksRead,
      Permissions.tasksClaim,
      Permissions.documentsWrite,
      Permissions.correspondentsRead,
      Permissions.correspondentsInvite,
    ],
  },
  {
    code: 'SALES',
    name: 'Sales',
    permissions: [
      Permissions.bookingsRead,
      Permissions.bookingsWrite,
      Permissions.analyticsSales,
      Permissions.lineupRead,
      Permissions.documentsWrite,
    ],
  },
  {
    code: 'FINANCE',
    name: 'Finance',
    permissions: [
      Permissions.bookingsRead,
      Permissions.analyticsSales,
      Permissions.analyticsRevenue,
      Permissions.commissionsReadAll,
    ],
  },
  {
    code: 'CM',
    name: 'Commercial manager',
    permissions: [Permissions.bookingsRead, Permissions.analyticsSales, Permissions.commissionsRead],
  },
  {
    code: 'BM',
    name: 'Business manager',
    permissions: [Permissions.bookingsRead, Permissions.analyticsSales],
  },
  {
    code: 'CORRESPONDENT',
    name: 'Correspondent',
    permissions: [
      Permissions.storyCategoriesRead,
      Permissions.tasksRead,
      Permissions.tasksClaim,
      Permissions.documentsWrite,
    ],
  },
];

/** The claims of an access token issued by acl (docs/api/contract.md §1). */
export interface AccessTokenClaims {
  sub: string;
  email: string;
  name: string;
  employee_number: string | null;
  groups: string[];
  roles: string[];
  permissions: string[];
  iss: string;
  aud: string | string[];
  iat: number;
  exp: number;
  jti: string;
  /** The user's token version when issued; a token below the latest one is revoked (0 when absent). */
  ver?: number;
}
