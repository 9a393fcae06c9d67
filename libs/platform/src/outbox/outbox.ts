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
import { currentContext } from '../http/request-context';
import { contextFrom, inSpan, SpanKind, traceparentOf } from '../observability/tracing';
import { EventBus } from './event-bus';
import { OutboxMessage } from './outbox.entity';

const POLL_MS = 500;
const BATCH = 100;

/**
 * Transactional outbox: `enqueue` writes the event in the caller's transaction; the relay
 * publishes pending rows in order (several replicas share the work with SKIP LOCKED) and marks
 * them published only once the bus accepted them, so an event is never lost (CONTRACT §5).
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EventBus) private readonly bus: EventBus,
  ) {}

  async enqueue(manager: EntityManager, subject: string, payload: object): Promise<void> {
    const { request_id, user_id } = currentContext();
    await manager.insert(OutboxMessage, {
      subject,
      payload,
      meta: { request_id, user_id, traceparent: traceparentOf() },
    });
    this.schedule(20);
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Publishes what is pending now; exposed so tests and shutdown can flush. */
  async relay(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .createQueryBuilder(OutboxMessage, 'o')
        .where('o.published_at IS NULL')
        .orderBy('o.created_at', 'ASC')
        .addOrderBy('o.id', 'ASC')
        .limit(BATCH)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      let published = 0;
      for (const row of rows) {
        const event: EventEnvelope = {
          id: row.id,
          subject: row.subject,
          occurred_at: row.createdAt.toISOString(),
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
          await manager.increment(OutboxMessage, { id: row.id }, 'attempts', 1);
          this.logger.warn(
            { subject: row.subject, err: error instanceof Error ? error.message : String(error) },
            'Outbox publish failed; will retry',
          );
          break;
        }
        await manager.update(OutboxMessage, { id: row.id }, { publishedAt: new Date() });
        published++;
      }
      return published;
    });
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.relay()
        .then((count) => this.schedule(count === BATCH ? 0 : POLL_MS))
        .catch((error: unknown) => {
          this.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'Outbox relay failed',
          );
          this.schedule(POLL_MS * 4);
        });
    }, delay);
    this.timer.unref();
  }
}
