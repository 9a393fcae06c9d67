import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflow tasks. Every list filter has an index that serves it in the list's own order
 * (keyset pagination, docs/api/contract.md §3); all of them skip soft-deleted rows.
 */
export class CreateTasks1765000000000 implements MigrationInterface {
  name = 'CreateTasks1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        status text NOT NULL DEFAULT 'OPEN'
          CHECK (status IN ('OPEN', 'CLAIMED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED')),
        priority text NOT NULL DEFAULT 'MEDIUM' CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH', 'URGENT')),
        engine_request text,
        workflow_node_code text NOT NULL,
        node_preview_name text NOT NULL,
        node_instructions text,
        required_permissions_snapshot jsonb NOT NULL DEFAULT '[]',
        required_permissions text[] NOT NULL DEFAULT '{}',
        candidate_groups uuid[] NOT NULL DEFAULT '{}',
        assigned_to uuid,
        assigned_at timestamptz(3),
        assigned_to_user jsonb,
        completed_at timestamptz(3),
        due_at timestamptz(3),
        source_service text,
        entity_type text,
        entity_id uuid,
        entity_reference text,
        escalation_level int NOT NULL DEFAULT 0 CHECK (escalation_level >= 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        deleted_at timestamptz(3),
        -- A task is held exactly when it is CLAIMED or IN_PROGRESS.
        CHECK ((assigned_to IS NOT NULL) = (status IN ('CLAIMED', 'IN_PROGRESS')) OR status IN ('COMPLETED', 'CANCELLED'))
      )`);
    const live = 'WHERE deleted_at IS NULL';
    // Default order: created_at desc, id desc.
    await q.query(`CREATE INDEX tasks_created_idx ON tasks (created_at DESC, id DESC) ${live}`);
    await q.query(
      `CREATE INDEX tasks_status_created_idx ON tasks (status, created_at DESC, id DESC) ${live}`,
    );
    await q.query(
      `CREATE INDEX tasks_assigned_created_idx ON tasks (assigned_to, created_at DESC, id DESC) ${live} AND assigned_to IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX tasks_priority_created_idx ON tasks (priority, created_at DESC, id DESC) ${live}`,
    );
    await q.query(
      `CREATE INDEX tasks_entity_created_idx ON tasks (entity_type, entity_id, created_at DESC, id DESC) ${live}`,
    );
    await q.query(
      `CREATE INDEX tasks_entity_id_created_idx ON tasks (entity_id, created_at DESC, id DESC) ${live} AND entity_id IS NOT NULL`,
    );
    // ordering=due_at: tasks without due_at last, as +infinity.
    await q.query(
      `CREATE INDEX tasks_due_idx ON tasks ((COALESCE(due_at, 'infinity'::timestamptz)), id) ${live}`,
    );
    await q.query(
      `CREATE INDEX tasks_status_due_idx ON tasks (status, (COALESCE(due_at, 'infinity'::timestamptz)), id) ${live}`,
    );
    // due_before / overdue, and the escalation job: open work by due date.
    await q.query(
      `CREATE INDEX tasks_active_due_idx ON tasks (due_at) ${live} AND due_at IS NOT NULL AND status IN ('OPEN', 'CLAIMED', 'IN_PROGRESS')`,
    );
    await q.query(`CREATE INDEX tasks_due_at_idx ON tasks (due_at) ${live} AND due_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tasks`);
  }
}
