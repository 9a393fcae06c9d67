/**
 * TypeORM's `query()` answers an UPDATE or DELETE with `[rows, rowCount]` (other statements
 * with the rows): the rows a data-changing statement RETURNING-ed.
 */
export function changedRows<T>(result: unknown): T[] {
  const pair = result as [T[], number];
  return Array.isArray(pair[0]) ? pair[0] : [];
}
