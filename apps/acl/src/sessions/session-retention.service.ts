import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PeriodicJob } from '@media/platform';
import type { DataSource } from 'typeorm';

const RETENTION_LOCK = 'acl:session-retention';
const EVERY_MS = 60 * 60_000;
/** Families per DELETE: short transactions. */
const BATCH = 1_000;

/**
 * Deletes the refresh-token rows of sessions that are over: every token of the family has expired,
 * or the family was revoked (docs/operations/capacity.md). A live family keeps its retired rows,
 * so presenting a copied token still ends the session; an ended one can be presented to no effect.
 */
@Injectable()
export class SessionRetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SessionRetention');
  private readonly job: PeriodicJob<number>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.job = new PeriodicJob({
      name: 'SessionRetention',
      every: EVERY_MS,
      firstAfter: 60_000,
      jitter: 0.1,
      exclusive: { dataSource, lock: RETENTION_LOCK },
      run: () => this.prune(new Date()),
      onResult: (deleted) => {
        if (deleted > 0) this.logger.log({ deleted }, 'Deleted the refresh tokens of ended sessions');
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

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
