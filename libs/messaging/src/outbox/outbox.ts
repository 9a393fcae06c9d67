import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEnvelope } from '@media/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { currentContext, contextFrom, inSpan, SpanKind, traceparentOf } from '@media/core';
import type { PlatformConfig } from '@media/core';
import { inIndexScansTransaction, InjectConfig } from '@media/kernel';
import { PeriodicJob } from '../jobs/periodic-job';
import { EventBus } from './event-bus';
import { OutboxMessage } from './outbox.entity';

const POLL_MS = 500;
const BATCH = 100;
/** A claimed row is another relay's again after this long (a publish times out after 2 s). */
const CLAIM_SECONDS = 30;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5_000;

/**
 * Leases the next $1 pending rows (oldest first, none another relay holds) for $2 seconds:
 * replicas share the work, each row taken by one (SKIP LOCKED).
 */
export const CLAIM_PENDING = `UPDATE outbox SET claimed_until = now() + make_interval(secs => $2)
 WHERE id IN (
   SELECT id FROM outbox
    WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY created_at, id
    LIMIT $1
    FOR UPDATE SKIP LOCKED)
 RETURNING id, subject, payload, meta, created_at`;

interface ClaimedRow {
  id: string;
  subject: string;
  payload: object;
  meta: EventEnvelope['meta'];
  created_at: Date;
}

/**
 * Transactional outbox: `enqueue` writes the event in the caller's transaction; the relay
 * publishes pending rows in order (several replicas share the work) and marks them published
 * only once the bus accepted them, so an event is never lost (docs/api/contract.md §5).
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  /** The relay: one pass at a time; replicas share the rows by their leases. */
  private readonly job = new PeriodicJob({
    name: 'Outbox',
    every: POLL_MS,
    retryAfter: POLL_MS * 4,
    after: (published: number) => (published === BATCH ? 0 : POLL_MS),
    run: () => this.relayBatch(),
  });
  private stopped = false;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EventBus) private readonly bus: EventBus,
    @InjectConfig() private readonly config: PlatformConfig,
  ) {}

  async enqueue(manager: EntityManager, subject: string, payload: object): Promise<void> {
    await manager.insert(OutboxMessage, { subject, payload, meta: this.meta() });
    this.written();
  }

  /**
   * The `meta` column of a row written now. For a change that writes its outbox row itself, in
   * the same statement (an `INSERT ... SELECT` from the CTE of its UPDATE: one round trip
   * instead of a transaction's four); it calls `written()` once that statement is done.
   */
  meta(): EventEnvelope['meta'] {
    const { request_id, user_id } = currentContext();
    return { request_id, user_id, traceparent: traceparentOf() };
  }

  /** A row was written: the relay runs soon. */
  written(): void {
    this.job.soon(20);
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.job.stop();
  }

  /** Publishes what is pending now (after the relay's running pass, if any); exposed so tests can flush. */
  async relay(): Promise<number> {
    return (await this.job.runOnce()) ?? 0;
  }

  /**
   * One batch of the relay. Rows are claimed in a
   * short transaction (a lease in `claimed_until`, taken with SKIP LOCKED so replicas share the
   * work) and published with no transaction or row lock open: a slow or unreachable NATS never
   * holds database locks or a pooled connection in a transaction. A relay that dies mid-batch
   * leaves its claims to expire; the consumers' idempotency absorbs the rare double publish.
   */
  private async relayBatch(): Promise<number> {
    await this.pruneNow();
    // The pending rows are read through outbox_pending_idx walked in order, never a bitmap scan:
    // each row published leaves its pending version in that index until vacuum (INDEX_SCANS_ONLY).
    const rows = await inIndexScansTransaction(this.dataSource, async (manager) => {
      const [claimed]: [ClaimedRow[], number] = await manager.query(CLAIM_PENDING, [BATCH, CLAIM_SECONDS]);
      return claimed;
    });
    rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at) || a.id.localeCompare(b.id));
    let published = 0;
    for (const row of rows) {
      const event: EventEnvelope = {
        id: row.id,
        subject: row.subject,
        occurred_at: new Date(row.created_at).toISOString(),
        data: row.payload,
        meta: row.meta,
      };
      try {
        // The publish continues the trace of the request that wrote the event; consumers continue this span.
        await inSpan(
          `publish ${row.subject}`,
          SpanKind.PRODUCER,
          {
            'messaging.system': 'nats',
            'messaging.destination.name': row.subject,
            'messaging.message.id': row.id,
          },
          () => this.bus.publish({ ...event, meta: { ...event.meta, traceparent: traceparentOf() } }),
          contextFrom(row.meta),
        );
      } catch (error) {
        this.logger.warn(
          { subject: row.subject, err: error instanceof Error ? error.message : String(error) },
          'Outbox publish failed; will retry',
        );
        break;
      }
      published++;
    }
    // The published rows are marked in one statement, not one per row: a relay dying before it
    // leaves them to be published again when their leases expire, which JetStream's de-duplication
    // by event id and the consumers' idempotency absorb, as for a relay dying mid-batch.
    if (published > 0) {
      await this.dataSource.query(
        `UPDATE outbox SET published_at = now(), claimed_until = NULL WHERE id = ANY($1::uuid[])`,
        [rows.slice(0, published).map((r) => r.id)],
      );
    }
    if (published < rows.length) {
      // The failed row and the rest of the batch go back to the queue, in order.
      await this.dataSource.query(
        `UPDATE outbox SET attempts = attempts + (id = $1)::int, claimed_until = NULL WHERE id = ANY($2::uuid[])`,
        [rows[published].id, rows.slice(published).map((r) => r.id)],
      );
    }
    return published;
  }

  /**
   * Deletes published outbox rows and processed-event records older than EVENTS_RETENTION, a
   * batch at a time; runs from the relay loop at most every PRUNE_EVERY_MS.
   */
  async prune(): Promise<number> {
    const retention = this.config.events.retention / 1000;
    const [, outbox]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE published_at < now() - make_interval(secs => $1) LIMIT $2)`,
      [retention, PRUNE_BATCH],
    );
    const [, processed]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM processed_events WHERE (event_id, consumer) IN (
         SELECT event_id, consumer FROM processed_events
          WHERE processed_at < now() - make_interval(secs => $1) LIMIT $2)`,
      [retention, PRUNE_BATCH],
    );
    return outbox + processed;
  }

  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    try {
      while ((await this.prune()) >= PRUNE_BATCH && !this.stopped) {
        /* keep going until a batch comes back short */
      }
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'Outbox pruning failed',
      );
    }
  }
}
