import type { MigrationInterface, QueryRunner } from 'typeorm';

const SEALED_INDEXES: [name: string, columns: string][] = [
  ['audit_entries_resource_idx', 'resource_type, resource_id, seq'],
  ['audit_entries_resource_id_idx', 'resource_id, seq'],
  ['audit_entries_actor_idx', 'actor_id, seq'],
  ['audit_entries_request_idx', 'request_id, seq'],
  ['audit_entries_action_idx', 'action, seq'],
  ['audit_entries_at_idx', 'at, seq'],
];

/**
 * The reading indexes hold sealed entries only (`WHERE seq IS NOT NULL`, which every read
 * implies): an entry is inserted in its change's transaction with seq null, so the change pays
 * for the primary key and the unsealed index alone, and the filters' indexes are written once,
 * when the sealer gives it its seq. The unique seq, the guard against a fork, becomes a partial
 * unique index for the same reason.
 */
export class AuditSealedIndexes1764900000410 implements MigrationInterface {
  name = 'AuditSealedIndexes1764900000410';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_seq_key`);
    await q.query(`CREATE UNIQUE INDEX audit_entries_seq_idx ON audit_entries (seq) WHERE seq IS NOT NULL`);
    for (const [name, columns] of SEALED_INDEXES) {
      await q.query(`DROP INDEX ${name}`);
      await q.query(`CREATE INDEX ${name} ON audit_entries (${columns}) WHERE seq IS NOT NULL`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name, columns] of SEALED_INDEXES) {
      await q.query(`DROP INDEX ${name}`);
      await q.query(`CREATE INDEX ${name} ON audit_entries (${columns})`);
    }
    await q.query(`DROP INDEX audit_entries_seq_idx`);
    await q.query(`ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_seq_key UNIQUE (seq)`);
  }
}
