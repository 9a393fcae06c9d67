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
import { AuditKeyStore } from './audit-keys';
import { checkpointSignatureValid } from './checkpoint-signature';

/** What one round did: the checkpoint recorded, or why none was. */
export type CheckpointRound =
  | { recorded: AuditCheckpoint & { kid: string } }
  | { skipped: 'no_new_entries' | 'acl_unavailable' | 'signature_invalid' };

/**
 * Every AUDIT_CHECKPOINT_INTERVAL, when entries were sealed since the last checkpoint, records
 * the chain's head `{app, seq, hash, at}` signed by acl (CONTRACT §8.2), one replica at a time
 * (an advisory lock). acl unreachable: the round is skipped, logged at warn, and the next one
 * tries again. A signature is recorded only once it verifies with acl's published audit keys: an
 * answer signed by any other key (another installation's acl on the same NATS, say) would make
 * the chain's verification fail later, so it is refused now and the next round asks again.
 */
@Injectable()
export class AuditCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditCheckpoints');
  private readonly job: PeriodicJob<CheckpointRound>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(APP_NAME) private readonly app: string,
    @Inject(AuditKeyStore) private readonly keys: AuditKeyStore,
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
    let valid: boolean;
    try {
      valid = await checkpointSignatureValid(this.keys, checkpoint, signature.kid, signature.jws);
    } catch (error) {
      if (!(error instanceof UpstreamUnavailable)) throw error;
      this.logger.warn(
        { seq: checkpoint.seq },
        "Audit checkpoint not recorded: acl's audit keys could not be read",
      );
      return { skipped: 'acl_unavailable' };
    }
    if (!valid) {
      this.logger.warn(
        { seq: checkpoint.seq, kid: signature.kid },
        "Audit checkpoint not recorded: its signature does not verify with acl's audit keys; next round retries",
      );
      return { skipped: 'signature_invalid' };
    }
    await this.dataSource.query(
      `INSERT INTO audit_checkpoints (seq, hash, at, kid, jws) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (seq) DO NOTHING`,
      [checkpoint.seq, checkpoint.hash, checkpoint.at, signature.kid, signature.jws],
    );
    return { recorded: { ...checkpoint, kid: signature.kid } };
  }
}
