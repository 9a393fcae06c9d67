import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The roles of docs/api/contract.md §1 with their exact permission sets. Kept literal here (not imported)
 * so that this migration means the same thing forever; a later change is a new migration.
 */
export const SEEDED_ROLES: readonly { code: string; name: string; permissions: readonly string[] }[] = [
  { code: 'ADMIN', name: 'Administrator', permissions: ['*'] },
  {
    code: 'EDITOR',
    name: 'Editor',
    permissions: [
      'lineup:read',
      'lineup:write',
      'story-categories:read',
      'story-categories:write',
      'tasks:read',
      'tasks:claim',
      'documents:write',
      'correspondents:read',
      'correspondents:invite',
    ],
  },
  {
    code: 'SALES',
    name: 'Sales',
    permissions: ['bookings:read', 'bookings:write', 'analytics:sales', 'lineup:read', 'documents:write'],
  },
  {
    code: 'FINANCE',
    name: 'Finance',
    permissions: ['bookings:read', 'analytics:sales', 'analytics:revenue', 'commissions:read-all'],
  },
  {
    code: 'CM',
    name: 'Commercial manager',
    permissions: ['bookings:read', 'analytics:sales', 'commissions:read'],
  },
  { code: 'BM', name: 'Business manager', permissions: ['bookings:read', 'analytics:sales'] },
  {
    code: 'CORRESPONDENT',
    name: 'Correspondent',
    permissions: ['story-categories:read', 'tasks:read', 'tasks:claim', 'documents:write'],
  },
];

export class SeedRoles1764000000001 implements MigrationInterface {
  name = 'SeedRoles1764000000001';

  async up(q: QueryRunner): Promise<void> {
    for (const role of SEEDED_ROLES) {
      await q.query(
        `INSERT INTO roles (code, name, permissions) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`,
        [role.code, role.name, role.permissions],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM roles WHERE code = ANY($1)`, [SEEDED_ROLES.map((r) => r.code)]);
  }
}
