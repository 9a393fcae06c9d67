import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AssignmentEvents, type TaskEscalatedEvent } from '@media/contracts';
import { asAuditJob } from '@media/platform';
import { InjectConfig } from '@media/kernel';
import { Outbox, PeriodicJob } from '@media/messaging';
import type { DataSource } from 'typeorm';
import type { AssignmentConfig } from '../config';
import { ClockService } from '../tasks/clock.service';
import { Task } from '../tasks/task.entity';
import { taskEventBase } from '../tasks/task.view';

/** What one pass of the job changed. */
export interface EscalationRun {
  /** Tasks whose level went up. */
  tasks: number;
  /** `assignment.task.escalated` events written (one per task whose level went up). */
  events: number;
}

interface EscalatedRow {
  id: string;
  old_level: number;
  new_level: number;
}

/**
 * Raises `escalation_level` of overdue, unfinished tasks (docs/api/contract.md §4.4), up to
 * `ESCALATION_MAX_LEVEL`, and announces each raise with ONE event carrying the level it came from
 * and the level it reached, however many intervals passed since the last pass (a task due in the
 * year 1000 is one event, not one per day since). Each batch is one transaction that locks its rows with
 * `FOR UPDATE SKIP LOCKED` and only takes rows whose stored level is below the computed one, so
 * a second run (or a second replica running at the same moment) changes and announces nothing twice.
 */
@Injectable()
export class EscalatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Escalator');
  private readonly intervalMs: number;
  private readonly everyMs: number;
  private readonly batch: number;
  private readonly maxLevel: number;
  private readonly job: PeriodicJob<EscalationRun>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(ClockService) private readonly clock: ClockService,
    @InjectConfig() config: AssignmentConfig,
  ) {
    this.intervalMs = config.escalation.interval;
    this.everyMs = config.escalation.checkInterval;
    this.batch = config.escalation.batch;
    this.maxLevel = config.escalation.maxLevel;
    // ±20% jitter so replicas started together drift apart; SKIP LOCKED shares the rows.
    this.job = new PeriodicJob({
      name: 'Escalator',
      every: this.everyMs,
      firstAfter: this.everyMs,
      jitter: 0.2,
      run: () => this.run(),
      onResult: (result) => {
        if (result.tasks > 0) this.logger.log(result, 'Escalated overdue tasks');
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** One pass at `now` (the clock's time by default): every due level, batch after batch. */
  async run(now: Date = this.clock.now()): Promise<EscalationRun> {
    const total: EscalationRun = { tasks: 0, events: 0 };
    for (;;) {
      const { tasks, events } = await this.escalateBatch(now);
      total.tasks += tasks;
      total.events += events;
      if (tasks < this.batch) return total;
    }
  }

  /** A batch's changes name the job (`assignment:escalation`) as their actor, whoever triggered the pass. */
  private escalateBatch(now: Date): Promise<EscalationRun> {
    return asAuditJob('assignment', 'escalation', () => this.escalateBatchNow(now), {
      task: 'task.escalated',
    });
  }

  private escalateBatchNow(now: Date): Promise<EscalationRun> {
    return this.dataSource.transaction(async (manager) => {
      const level = `LEAST(floor(extract(epoch FROM ($1::timestamptz - due_at)) * 1000 / $2::bigint) + 1, $4::int)::int`;
      const [rows] = (await manager.query(
        `WITH due AS (
           SELECT id, escalation_level AS old_level, ${level} AS new_level
             FROM tasks
            WHERE deleted_at IS NULL AND due_at IS NOT NULL AND due_at < $1::timestamptz
              AND status IN ('OPEN', 'CLAIMED', 'IN_PROGRESS')
              AND escalation_level < ${level}
            ORDER BY due_at, id
            LIMIT $3
              FOR UPDATE SKIP LOCKED
         )
         UPDATE tasks t SET escalation_level = due.new_level, updated_at = now()
           FROM due WHERE t.id = due.id
         RETURNING t.id, due.old_level, due.new_level`,
        [now.toISOString(), this.intervalMs, this.batch, this.maxLevel],
      )) as [EscalatedRow[], number];
      if (rows.length === 0) return { tasks: 0, events: 0 };
      const tasks = await manager
        .getRepository(Task)
        .createQueryBuilder('t')
        .where('t.id IN (:...ids)', { ids: rows.map((r) => r.id) })
        .getMany();
      const byId = new Map(tasks.map((t) => [t.id, t]));
      for (const row of rows) {
        const event: TaskEscalatedEvent = {
          ...taskEventBase(byId.get(row.id)!, null),
          escalation_level: row.new_level,
          from_level: row.old_level,
          to_level: row.new_level,
        };
        await this.outbox.enqueue(manager, AssignmentEvents.taskEscalated, event);
      }
      return { tasks: rows.length, events: rows.length };
    });
  }
}
