import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventBus } from '@media/messaging';
import { AppMetrics } from '@media/core';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The gauges read at scrape time from what every app has: the outbox (backlog, age of the
 * oldest unpublished event), the database pool, and the app's JetStream consumers (lag,
 * messages awaiting an ack, redeliveries, how long one has been stalled).
 */
@Injectable()
export class PlatformMetrics implements OnModuleInit {
  constructor(
    @Inject(AppMetrics) private readonly metrics: AppMetrics,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EventBus) private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    const { metrics, dataSource, bus } = this;
    // Read before the outbox gauges below start their query (it would be queued behind a full pool).
    const pool = () => (dataSource.driver as unknown as { master?: PgPool }).master;
    metrics.gauge('db_pool_connections', 'Database pool connections by state.', ['state'], (g) => {
      const p = pool();
      if (!p) return;
      g.set({ state: 'in_use' }, p.totalCount - p.idleCount);
      g.set({ state: 'idle' }, p.idleCount);
    });
    metrics.gauge('db_pool_waiting', 'Queries waiting for a free database connection.', [], (g) => {
      const p = pool();
      // pg-pool queues a checkout for one tick even when a connection is idle: only while none is
      // idle are queued checkouts really waiting.
      if (p) g.set(p.idleCount > 0 ? 0 : p.waitingCount);
    });
    const outbox = async () => {
      // The partial index outbox_pending_idx keeps this cheap whatever the table's size.
      const [row] = (await dataSource.query(
        `SELECT count(*)::int AS backlog,
                COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
           FROM outbox WHERE published_at IS NULL`,
      )) as { backlog: number; age: number }[];
      return row;
    };
    metrics.gauge('outbox_backlog', 'Events written to the outbox and not yet published.', [], async (g) =>
      g.set((await outbox()).backlog),
    );
    metrics.gauge(
      'outbox_oldest_age_seconds',
      'Age of the oldest unpublished outbox event (0 when none).',
      [],
      async (g) => g.set((await outbox()).age),
    );
    metrics.gauge(
      'events_consumer_pending',
      'Events in the stream that a durable consumer of this app has not been delivered yet.',
      ['consumer'],
      (g) => {
        for (const info of bus.consumerStats()) g.set({ consumer: info.name }, info.pending);
      },
    );
    metrics.gauge(
      'events_consumer_ack_pending',
      'Events delivered to a consumer of this app and not acknowledged yet.',
      ['consumer'],
      (g) => {
        for (const info of bus.consumerStats()) g.set({ consumer: info.name }, info.ackPending);
      },
    );
    metrics.gauge(
      'events_consumer_redelivered',
      'Events currently being redelivered to a consumer of this app.',
      ['consumer'],
      (g) => {
        for (const info of bus.consumerStats()) g.set({ consumer: info.name }, info.redelivered);
      },
    );
    metrics.gauge(
      'events_consumer_stalled_seconds',
      'How long a durable consumer of this app has had events pending (or its server unreachable) without acknowledging any; 0 when idle or moving.',
      ['consumer'],
      (g) => {
        for (const report of bus.consumerReports()) g.set({ consumer: report.name }, report.stalledSeconds);
      },
    );
  }
}
