import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { APP_NAME } from '@media/kernel';
import {
  ValidationFailed,
  auditEntryOf,
  checkpointLineOf,
  type AuditCheckpointRow,
  type AuditEntryRow,
  ChainWalker,
  GENESIS_HASH,
  type AuditBreak,
  type AuditEntry,
} from '@media/core';
import type { Page } from '@media/http';
import { Paginator, type KeysetOrder } from '@media/http';
import { AuditKeyStore } from './audit-keys';
import { checkpointSignatureValid } from './checkpoint-signature';
import type { ExportAuditQuery, ListAuditQuery } from './dto/list-audit.query';
import { SealedAuditEntry } from './sealed-entry.entity';

/** Rows read per query while walking or exporting the chain: memory stays flat at any length. */
const AUDIT_BATCH = 2_000;

/** What `GET .../audit/verify` answers (CONTRACT §8.3). */
export interface AuditVerification {
  valid: boolean;
  entries: number;
  head: { seq: number; hash: string };
  checkpoint: { seq: number; at: string; kid: string } | null;
  first_break: AuditBreak | null;
}

/**
 * While a long walk runs, verify sends a space this often (JSON allows leading whitespace), so
 * the gateway, which cuts an upstream silent for UPSTREAM_TIMEOUT (30 s by default), keeps it.
 */
export const VERIFY_HEARTBEAT_MS = 10_000;

/** Newest first: `seq` is unique and grows with commit order. */
const NEWEST_FIRST: KeysetOrder<SealedAuditEntry> = {
  columns: [{ expression: 'e.seq', direction: 'DESC', cast: 'bigint' }],
  key: (row) => [Number(row.seq)],
};

const FILTERS = ['resource_type', 'resource_id', 'actor_id', 'action', 'request_id'] as const;

/**
 * The reading side of the app's audit trail (CONTRACT §8.3): the list, the verification of the
 * whole chain and its checkpoints, and the export. Only sealed entries (their hash set) are
 * listed and exported; everything long is read in keyset batches, never whole.
 */
@Injectable()
export class AuditReader {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(AuditKeyStore) private readonly keys: AuditKeyStore,
    @Inject(APP_NAME) private readonly app: string,
  ) {}

  list(query: ListAuditQuery, req: Request): Promise<Page<AuditEntry>> {
    const qb = this.dataSource
      .getRepository(SealedAuditEntry)
      .createQueryBuilder('e')
      .where('e.seq IS NOT NULL')
      .andWhere('e.hash IS NOT NULL');
    for (const filter of FILTERS)
      if (query[filter] !== undefined) qb.andWhere(`e.${filter} = :${filter}`, { [filter]: query[filter] });
    if (query.from !== undefined) qb.andWhere('e.at >= CAST(:from AS timestamptz)', { from: query.from });
    if (query.to !== undefined) qb.andWhere('e.at < CAST(:to AS timestamptz)', { to: query.to });
    return this.paginator.paginate(qb, NEWEST_FIRST, query, req, auditEntryOf);
  }

  /**
   * Walks the whole chain in seq order (or, when retention pruned its beginning, from the
   * checkpoint kept just before the oldest entry), checking every entry's hash and link, every
   * checkpoint's hash against the chain and its signature against acl's audit keys. Stops at
   * the first break. acl unreachable while a signature is to be checked: 503. `signal` aborts
   * the walk (the caller went away).
   */
  /** Between two spaces of a long verify's answer (VERIFY_HEARTBEAT_MS; a test shortens it). */
  heartbeatMs = VERIFY_HEARTBEAT_MS;

  /**
   * Fetches the key of every `kid` that signed a checkpoint before the walk starts, so that acl
   * being unreachable is a 503 before the answer begins (then the walk finds the keys held).
   */
  async fetchKeys(): Promise<void> {
    const kids = (await this.dataSource.query('SELECT DISTINCT kid FROM audit_checkpoints')) as {
      kid: string;
    }[];
    for (const { kid } of kids) await this.keys.getKeyObject(kid);
  }

  async verify(signal?: AbortSignal): Promise<AuditVerification> {
    const [{ min }] = (await this.dataSource.query(
      'SELECT min(seq) AS min FROM audit_entries WHERE seq IS NOT NULL',
    )) as { min: string | null }[];
    const oldest = min === null ? 1 : Number(min);
    let walker = new ChainWalker();
    let lastCheckpoint: AuditVerification['checkpoint'] = null;
    if (oldest > 1) {
      // Pruned: the chain goes on from the checkpoint kept at the last pruned entry, if any.
      const [anchor] = (await this.dataSource.query('SELECT * FROM audit_checkpoints WHERE seq = $1', [
        oldest - 1,
      ])) as AuditCheckpointRow[];
      if (!anchor) walker.fail({ seq: 1, reason: 'gap' });
      else {
        walker = new ChainWalker({ seq: oldest, prevHash: anchor.hash });
        if (!(await this.signed(anchor))) walker.fail({ seq: oldest - 1, reason: 'signature_invalid' });
        else lastCheckpoint = this.summary(anchor);
      }
    }

    const checkpoints = this.checkpointsFrom(oldest);
    let pending = await checkpoints.next();
    for await (const row of this.entries('seq IS NOT NULL', oldest, Number.MAX_SAFE_INTEGER)) {
      if (walker.firstBreak) break;
      // The caller went away: the walk's answer would reach no one.
      signal?.throwIfAborted();
      const entry = auditEntryOf(row);
      if (walker.next(entry)) break;
      while (!pending.done && Number(pending.value.seq) <= entry.seq) {
        const checkpoint = checkpointLineOf(this.app, pending.value).checkpoint;
        if (walker.checkpoint(checkpoint)) break;
        if (!(await this.signed(pending.value))) {
          walker.fail({ seq: checkpoint.seq, reason: 'signature_invalid' });
          break;
        }
        lastCheckpoint = this.summary(pending.value);
        pending = await checkpoints.next();
      }
    }
    // A checkpoint beyond the last entry vouches for entries that are gone.
    if (!walker.firstBreak && !pending.done) walker.fail({ seq: walker.head.seq + 1, reason: 'gap' });
    await checkpoints.return(undefined);

    const head = walker.head;
    return {
      valid: walker.firstBreak === null,
      entries: walker.entries,
      head: { seq: head.seq, hash: head.seq === 0 ? GENESIS_HASH : head.hash },
      checkpoint: lastCheckpoint,
      first_break: walker.firstBreak,
    };
  }

  /** Refuses an export range that ends before it starts (422 at `to_seq`). */
  checkRange(query: ExportAuditQuery): void {
    if (query.from_seq !== undefined && query.to_seq !== undefined && query.to_seq < query.from_seq)
      throw ValidationFailed.at(['query', 'to_seq'], 'to_seq must not be below from_seq', 'value_error');
  }

  /**
   * The export's NDJSON lines (CONTRACT §8.3), read in batches as the consumer asks for them:
   * sealed entries from `from_seq` to `to_seq` (both inclusive), each checkpoint right after the
   * entry whose seq it carries. The checkpoint at the seq just before the first entry exported
   * comes first when there is one: where an offline verifier starts a chain that does not begin
   * at seq 1.
   */
  async *exportLines(query: ExportAuditQuery): AsyncGenerator<string> {
    const to = query.to_seq ?? Number.MAX_SAFE_INTEGER;
    const from = query.from_seq ?? 1;
    const checkpoints = this.checkpointsFrom(from - 1);
    try {
      let pending = await checkpoints.next();
      let first = true;
      const line = (row: AuditCheckpointRow) => `${JSON.stringify(checkpointLineOf(this.app, row))}\n`;
      for await (const row of this.entries('hash IS NOT NULL', from, to)) {
        const seq = Number(row.seq);
        while (!pending.done && Number(pending.value.seq) < seq) {
          // Before the first entry, only the checkpoint just before it (a starting point).
          if (!first || Number(pending.value.seq) === seq - 1) yield line(pending.value);
          pending = await checkpoints.next();
        }
        first = false;
        yield `${JSON.stringify(auditEntryOf(row))}\n`;
        while (!pending.done && Number(pending.value.seq) === seq) {
          yield line(pending.value);
          pending = await checkpoints.next();
        }
      }
      while (!first && !pending.done && Number(pending.value.seq) <= to) {
        yield line(pending.value);
        pending = await checkpoints.next();
      }
    } finally {
      await checkpoints.return(undefined);
    }
  }

  private summary(row: AuditCheckpointRow): AuditVerification['checkpoint'] {
    return { seq: Number(row.seq), at: row.at.toISOString(), kid: row.kid };
  }

  private signed(row: AuditCheckpointRow): Promise<boolean> {
    return checkpointSignatureValid(this.keys, checkpointLineOf(this.app, row).checkpoint, row.kid, row.jws);
  }

  /** Entries matching `where` with seq in [from, to], in seq order, a batch per query. */
  private async *entries(where: string, from: number, to: number): AsyncGenerator<AuditEntryRow> {
    let after = from - 1;
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT id, seq, at, app, action, actor_type, actor_id, actor_name, resource_type, resource_id,
                request_id, cause, changes, prev_hash, hash
           FROM audit_entries WHERE ${where} AND seq > $1 AND seq <= $2 ORDER BY seq LIMIT ${AUDIT_BATCH}`,
        [after, to],
      )) as AuditEntryRow[];
      yield* rows;
      if (rows.length < AUDIT_BATCH) return;
      after = Number(rows[rows.length - 1].seq);
    }
  }

  /** Checkpoints with seq at or above `from`, in seq order, a batch per query. */
  private async *checkpointsFrom(from: number): AsyncGenerator<AuditCheckpointRow> {
    let after = from - 1;
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT seq, hash, at, kid, jws FROM audit_checkpoints WHERE seq > $1 ORDER BY seq LIMIT ${AUDIT_BATCH}`,
        [after],
      )) as AuditCheckpointRow[];
      yield* rows;
      if (rows.length < AUDIT_BATCH) return;
      after = Number(rows[rows.length - 1].seq);
    }
  }
}
