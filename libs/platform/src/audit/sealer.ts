import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig, APP_NAME, INDEX_SCANS_ONLY } from '@media/kernel';
import { PeriodicJob } from '@media/messaging';
import { auditEntryOf, type AuditEntry, type AuditEntryRow, entryHash, GENESIS_HASH } from '@media/core';
import { AuditPublisher } from './publisher';

/** Entries sealed per transaction at most. */
const BATCH = 500;

/** The next unsealed entries (committed ones), oldest first, $1 at most. */
export const UNSEALED_ENTRIES = `SELECT id, at, app, action, actor_type, actor_id, actor_name, resource_type, resource_id,
       request_id, cause, changes
  FROM audit_entries
 WHERE seq IS NULL
 ORDER BY recorded
 LIMIT $1`;

/** Gives the entries $1 their seq $2, prev_hash $3 and hash $4. */
export const SEAL_ENTRIES = `UPDATE audit_entries e SET seq = s.seq, prev_hash = s.prev_hash, hash = s.hash
  FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[]) AS s(id, seq, prev_hash, hash)
 WHERE e.id = s.id`;

/** An unsealed row (the columns the hash covers, `seq`/`prev_hash`/`hash` still null). */
type UnsealedRow = Omit<AuditEntryRow, 'seq' | 'prev_hash' | 'hash'>;

/**
 * Gives each recorded entry its place in the app's chain (CONTRACT §8.2): seq = head + 1,
 * prev_hash = the head's hash, hash = `entryHash` of the §8.1 object. One replica at a time
 * (an advisory lock). A pass takes the unsealed entries its snapshot sees, in insertion order:
 * only committed ones (an entry of a transaction still running is not visible yet and is sealed
 * by a later pass, after those sealed before it committed; a rolled-back one never appears), and
 * since seq is given at sealing, no gap can open. It does not wait for the snapshot's xmin
 * (`tx < pg_snapshot_xmin(...)`): xids are cluster-wide, so any long transaction on the server
 * (another app's index build, a stuck session) would hold back sealing in every database.
 * A pass runs every AUDIT_SEAL_INTERVAL (an entry is sealed within it and a pass). The UNIQUE
 * seq is the last guard against a fork: two sealers cannot both write seq n.
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly job: PeriodicJob<number>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_NAME) private readonly app: string,
    @InjectConfig() config: PlatformConfig,
    @Inject(AuditPublisher) private readonly publisher: AuditPublisher,
  ) {
    this.job = new PeriodicJob({
      name: 'AuditSealer',
      every: config.audit.sealInterval,
      retryAfter: Math.max(config.audit.sealInterval, 1_000),
      after: (sealed) => (sealed === BATCH ? 0 : config.audit.sealInterval),
      run: () => this.sealBatch(),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** Seals what has committed by now (after the running pass); answers how many it sealed. Tests flush with it. */
  async seal(): Promise<number> {
    let total = 0;
    for (;;) {
      const sealed = (await this.job.runOnce()) ?? 0;
      total += sealed;
      if (sealed < BATCH) return total;
    }
  }

  /**
   * One pass: seals up to BATCH entries in one transaction, then hands them to the publisher, which
   * publishes them without reading back what was just written when they follow its resume point.
   */
  private async sealBatch(): Promise<number> {
    const sealed = await this.sealedInTransaction();
    if (sealed.length > 0) this.publisher.sealed(sealed);
    return sealed.length;
  }

  private sealedInTransaction(): Promise<AuditEntry[]> {
    return this.dataSource.transaction(async (manager) => {
      // One replica at a time, by a lock held for this transaction only: one pooled connection
      // per pass (a session lock would hold a second one, and two jobs each holding one while
      // waiting for another can starve a small pool). The pass reads audit_entries only through
      // indexes walked in order: each entry it seals leaves its unsealed version in
      // audit_entries_unsealed_idx until vacuum, which a bitmap scan would visit at every pass
      // (INDEX_SCANS_ONLY); and its UPDATE looks its ids up by key (a plan hashing the whole
      // table was seen while the chain was small).
      const [{ locked }]: { locked: boolean }[] = await manager.query(
        `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked, ${INDEX_SCANS_ONLY}`,
        [`audit-sealer:${this.app}`],
      );
      if (!locked) return [];
      const rows: UnsealedRow[] = await manager.query(UNSEALED_ENTRIES, [BATCH]);
      if (rows.length === 0) return [];
      const [head]: { seq: string; hash: string }[] = await manager.query(
        `SELECT seq, hash FROM audit_entries WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      );
      let { seq, hash: prevHash } = head
        ? { seq: Number(head.seq), hash: head.hash }
        : await this.prunedHead(manager);
      const entries: AuditEntry[] = [];
      for (const row of rows) {
        seq += 1;
        const entry = auditEntryOf({ ...row, seq, prev_hash: prevHash, hash: '' });
        entry.hash = entryHash(entry);
        entries.push(entry);
        prevHash = entry.hash;
      }
      await manager.query(SEAL_ENTRIES, [
        entries.map((e) => e.id),
        entries.map((e) => e.seq),
        entries.map((e) => e.prev_hash),
        entries.map((e) => e.hash),
      ]);
      return entries;
    });
  }

  /**
   * The head when no entry is left: the genesis, or (once retention pruned every entry) the
   * newest checkpoint kept, whose seq and hash the chain goes on from.
   */
  private async prunedHead(manager: { query: DataSource['query'] }): Promise<{ seq: number; hash: string }> {
    const [kept]: { seq: string; hash: string }[] = await manager.query(
      `SELECT seq, hash FROM audit_checkpoints ORDER BY seq DESC LIMIT 1`,
    );
    return kept ? { seq: Number(kept.seq), hash: kept.hash } : { seq: 0, hash: GENESIS_HASH };
  }
}
