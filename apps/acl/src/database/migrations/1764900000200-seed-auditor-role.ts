import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The role of CONTRACT §8.3 that reads the audit trail and nothing else; kept literal, as the first seed. */
export const AUDITOR_ROLE = { code: 'AUDITOR', name: 'Auditor', permissions: ['audit:read'] } as const;

export class SeedAuditorRole1764900000200 implements MigrationInterface {
  name = 'SeedAuditorRole1764900000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO roles (code, name, permissions) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`,
      [AUDITOR_ROLE.code, AUDITOR_ROLE.name, [...AUDITOR_ROLE.permissions]],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM roles WHERE code = $1`, [AUDITOR_ROLE.code]);
  }
}
