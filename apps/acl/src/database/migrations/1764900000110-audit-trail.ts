import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What acl records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  {
    table: 'users',
    type: 'user',
    redacted: ['password_hash'],
    ignored: ['updated_at', 'last_login', 'token_version_raised_at'],
  },
  { table: 'roles', type: 'role', idColumn: 'code' },
  {
    table: 'user_roles',
    type: 'user.role',
    idColumn: 'user_id',
    ignored: ['created_at'],
    verbs: { INSERT: 'added', DELETE: 'removed' },
  },
  { table: 'groups', type: 'group', ignored: ['updated_at'] },
  {
    table: 'group_members',
    type: 'group.member',
    idColumn: 'group_id',
    ignored: ['created_at'],
    verbs: { INSERT: 'added', DELETE: 'removed' },
  },
  { table: 'invitations', type: 'invitation', redacted: ['token_hash'] },
  { table: 'signing_keys', type: 'signing_key', idColumn: 'kid', redacted: ['private_key_pem'] },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailAcl1764900000110 implements MigrationInterface {
  name = 'AuditTrailAcl1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'acl', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
