import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AclSubjects } from '@media/contracts';
import { DataSource } from 'typeorm';
import type { PlatformConfig, AuditCheckpoint } from '@media/core';
import { InjectConfig, APP_NAME } from '@media/kernel';
import { UpstreamUnavailable } from '@media/core';
import { PeriodicJob, RpcClient } from '@media/messaging';

/** What one round did: the checkpoint recorded, or why none was. */
export type CheckpointRound =
  | { recorded: AuditCheckpoint & { kid: string } }
  | { skipped: 'no_new_entries' | 'acl_unavailable' };

/**
 * Every AUDIT_CHECKPOINT_INTERVAL, when entries were sealed since the last checkpoint, records
 * the chain's head `{app, seq, hash, at}` signed by acl (CONTRACT §8.2), one replica at a time
 * (an advisory lock). acl unreachable: the round is skipped, logged at warn, and the next one
 * tries again.
 */
@Injectable()
export class AuditCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditCheckpoints');
  private readonly job: PeriodicJob<CheckpointRound>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(APP_NAME) private readonly app: string,
    @InjectConfig() config: PlatformConfig,
  ) {
    const every = config.audit.checkpointInterval;
    this.job = new PeriodicJob({
      name: 'AuditCheckpoints',
      every,
      firstAfter: every,
      jitter: 0.1,
      exclusive: { dataSource, lock: `audit-checkpoints:${app}` },
      run: () => this.round(),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** One round now (after the running one); undefined when another replica holds the lock. */
  runOnce(): Promise<CheckpointRound | undefined> {
    return this.job.runOnce();
  }

  private async round(): Promise<CheckpointRound> {
    const [head] = (await this.dataSource.query(
      `SELECT seq, hash FROM audit_entries WHERE seq IS NOT NULL AND hash IS NOT NULL
        ORDER BY seq DESC LIMIT 1`,
    )) as { seq: string; hash: string }[];
    const [{ last }] = (await this.dataSource.query('SELECT max(seq) AS last FROM audit_checkpoints')) as {
      last: string | null;
    }[];
    if (!head || (last !== null && Number(last) >= Number(head.seq))) return { skipped: 'no_new_entries' };

    const checkpoint: AuditCheckpoint = {
      app: this.app,
      seq: Number(head.seq),
      hash: head.hash,
      at: new Date().toISOString(),
    };
    let signature: { kid: string; jws: string };
    try {
      signature = await this.rpc.send(AclSubjects.auditSignCheckpoint, checkpoint);
    } catch (error) {
      if (!(error instanceof UpstreamUnavailable)) throw error;
      this.logger.warn(
        { seq: checkpoint.seq },
        'Audit checkpoint not signed: acl did not answer; next round retries',
      );
      return { skipped: 'acl_unavailable' };
    }
    await this.dataSource.query(
      `INSERT INTO audit_checkpoints (seq, hash, at, kid, jws) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (seq) DO NOTHING`,
      [checkpoint.seq, checkpoint.hash, checkpoint.at, signature.kid, signature.jws],
    );
    return { recorded: { ...checkpoint, kid: signature.kid } };
  }
}
