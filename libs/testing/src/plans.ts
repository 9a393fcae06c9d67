import type { Client } from 'pg';
import { queryDatabase } from './databases';

/** A node of a JSON query plan, as `EXPLAIN (FORMAT JSON)` answers it. */
export type PlanNode = Record<string, unknown>;

/** The plan of `sql` run with `params` on `db` (`EXPLAIN (ANALYZE, FORMAT JSON)`: it runs). */
export async function analyzedPlan(db: Client, sql: string, params: unknown[] = []): Promise<PlanNode> {
  const { rows } = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    params,
  );
  return rows[0]['QUERY PLAN'][0].Plan;
}

/** How PostgreSQL would compile `sql` (`EXPLAIN`'s JIT part: functions, options), or undefined. */
export async function plannedJit(db: Client, sql: string, params: unknown[] = []): Promise<unknown> {
  const { rows } = await db.query<{ 'QUERY PLAN': { JIT?: unknown }[] }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    params,
  );
  return rows[0]['QUERY PLAN'][0].JIT;
}

/**
 * The rows of `relation` a plan node and its children read: returned or filtered out (and those a
 * join filtered out), so a test can tell an index's few rows from a walk through the table.
 */
export function rowsRead(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation
      ? Number(node['Actual Rows'] ?? 0) * Number(node['Actual Loops'] ?? 1) +
        Number(node['Rows Removed by Filter'] ?? 0)
      : Number(node['Rows Removed by Join Filter'] ?? 0);
  const children = (node.Plans as PlanNode[] | undefined) ?? [];
  return children.reduce((sum, child) => sum + rowsRead(child, relation), own);
}

/** Every node of a plan, the plan's own first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...((plan.Plans as PlanNode[] | undefined) ?? []).flatMap(planNodes)];
}

/**
 * How a plan reads `relation`, a line per node that does: its type, its index and the index's
 * condition (`Index Scan using outbox_pkey where (id = s.id)`), so a test can tell a lookup by
 * key from a walk through a whole index.
 */
export function readsOf(plan: PlanNode, relation: string): string[] {
  return planNodes(plan)
    .filter((node) => node['Relation Name'] === relation)
    .map((node) =>
      [
        node['Node Type'],
        node['Index Name'] && `using ${node['Index Name']}`,
        node['Index Cond'] && `where ${node['Index Cond']}`,
      ]
        .filter(Boolean)
        .join(' '),
    );
}

/**
 * A table `noted_plans (pass, bitmapscan, seqscan)` and a trigger function `note_plans(pass)`
 * in the database at `url`: a row trigger calling it notes the planner settings the statement
 * that fired it runs under, so a test can see a worker's settings from inside its own statement.
 */
export async function createPlanNotes(url: string): Promise<void> {
  await queryDatabase(url, `CREATE TABLE noted_plans (pass text, bitmapscan text, seqscan text)`);
  await queryDatabase(
    url,
    `CREATE FUNCTION note_plans() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO noted_plans
       VALUES (TG_ARGV[0], current_setting('enable_bitmapscan'), current_setting('enable_seqscan'));
       RETURN NULL;
     END $$`,
  );
}
