import type { DataSource, EntityManager } from 'typeorm';

interface PgPool {
  query<Row>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/**
 * A hot statement run as a named (server-side prepared) statement: PostgreSQL parses and analyses
 * it once per pooled connection instead of on every call, and where the generic plan is as good as
 * a custom one (a lookup by key) it stops planning it too after the fifth run. For `users/me` that
 * took the server's share from about 0.15 ms of parse, plan and execution to 0.03 ms
 * (docs/benchmarks.md, "Prepared statements").
 *
 * Only for statements whose text is fixed (no SQL built from input). List the result columns by
 * name: PostgreSQL re-plans a prepared statement when a migration changes a table under it, but
 * refuses to run it once its result columns change ("cached plan must not change result type",
 * which `SELECT *` meets at every added column, and a named column at a change of its type). The
 * pool's client never prepares a name again, so such a statement then runs as an ordinary query
 * (refused at bind, before it ran, so a write is not done twice), on that connection until the
 * pool closes it. Inside a transaction (`manager` with a query runner) the statement runs as an
 * ordinary query on that transaction's connection. Errors are pg's own, not TypeORM's
 * `QueryFailedError`.
 */
export class PreparedQuery<Row> {
  constructor(
    /** Unique per text: the pg client refuses one name for two texts. */
    readonly name: string,
    readonly text: string,
  ) {}

  async run(dataSource: DataSource, values: unknown[], manager?: EntityManager): Promise<Row[]> {
    if (manager?.queryRunner) return manager.query(this.text, values);
    const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
    if (!pool) return dataSource.query(this.text, values);
    try {
      const { rows } = await pool.query<Row>({ name: this.name, text: this.text, values });
      return rows;
    } catch (error) {
      if (!resultTypeChanged(error)) throw error;
      return dataSource.query(this.text, values);
    }
  }
}

/**
 * PostgreSQL's refusal to run a prepared statement whose result columns changed under it ("cached
 * plan must not change result type"), told by the function that raises it: the message is
 * translated under another `lc_messages`, and the code (feature not supported) is shared.
 */
function resultTypeChanged(error: unknown): boolean {
  const { code, routine } = error as { code?: unknown; routine?: unknown };
  return code === '0A000' && routine === 'RevalidateCachedQuery';
}
