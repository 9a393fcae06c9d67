import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Families per DELETE: short transactions. */
const BATCH = 1_000;

/**
 * Deletes the refresh-token rows of sessions that are over: every token of the family has expired,
 * or the family was revoked (docs/operations/capacity.md). A live family keeps its retired rows,
 * so presenting a copied token still ends the session; an ended one can be presented to no effect.
 * Run hourly by the SessionRetention job (session-retention.worker.ts).
 */
@Injectable()
export class SessionRetentionService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Deletes the rows of families over at `now`; how many rows went. */
  async prune(now: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const [{ families, rows }] = (await this.dataSource.query(
        `WITH ended AS (
           SELECT family_id FROM refresh_tokens GROUP BY family_id
           HAVING max(expires_at) <= $1 OR bool_and(revoked_at IS NOT NULL)
           LIMIT $2),
         gone AS (DELETE FROM refresh_tokens WHERE family_id IN (SELECT family_id FROM ended) RETURNING 1)
         SELECT (SELECT count(*) FROM ended)::int AS families, (SELECT count(*) FROM gone)::int AS rows`,
        [now, BATCH],
      )) as { families: number; rows: number }[];
      deleted += rows;
      if (families < BATCH) return deleted;
    }
  }
}
