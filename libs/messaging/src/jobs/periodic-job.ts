import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { requestContext } from '@media/core';

/** What decides when a job's next pass starts: real timers, or a test's hand. */
export interface JobTimer {
  /** Calls `fn` once after `ms` milliseconds; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/**
 * How many exclusive passes of one data source hold their locks at once: one fewer than its pool
 * has connections (DB_POOL_MAX is 2 at least). A pass holds its lock on a pooled connection while
 * its work takes others from the same pool; were every connection a lock's, each pass would wait
 * for another until the pool's connect timeout. With one always left, the passes' work goes on, one
 * after another at worst, as long as a pass's work holds one pooled connection at a time (what
 * every exclusive job does: statements one after another, or one transaction). A pass waiting for
 * its turn holds no connection; a pass that never ends keeps its turn.
 */
class LockTurns {
  private holding = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async take(): Promise<() => void> {
    if (this.holding >= this.limit) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.holding += 1;
    return () => {
      // Handed to the next pass waiting, or given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.holding -= 1;
    };
  }
}

const lockTurns = new WeakMap<DataSource, LockTurns>();

function lockTurnsOf(dataSource: DataSource): LockTurns {
  let turns = lockTurns.get(dataSource);
  if (!turns) {
    // The pool exists once the data source is initialised, which its first query needs anyway.
    const pool = (dataSource.driver as unknown as { master?: { options: { max?: number } } }).master;
    turns = new LockTurns(Math.max(1, (pool?.options.max ?? 10) - 1));
    if (pool) lockTurns.set(dataSource, turns);
  }
  return turns;
}

/** Node's timers, unref'd: a pending pass never keeps the process alive. */
const realTimer: JobTimer = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface PeriodicJobOptions<R> {
  /** Named in logs. */
  name: string;
  /** The pause between the end of one pass and the start of the next, in ms. */
  every: number;
  /** One pass. Its result decides the next pause (`after`); a throw is logged and retried. */
  run: () => Promise<R>;
  /** The pause before the first pass after `start()` (default 0). */
  firstAfter?: number;
  /** The pause after a pass, from its result (default `every`), e.g. 0 when a batch came back full. */
  after?: (result: R) => number;
  /** The pause after a failed pass (default `every`). */
  retryAfter?: number;
  /** ±this fraction of randomness on the pauses, so replicas started together drift apart (default 0). */
  jitter?: number;
  /**
   * Runs a pass only while this replica holds the PostgreSQL session advisory lock named `lock`:
   * one replica of the installation at a time; elsewhere the pass is skipped (`runOnce` answers
   * undefined). For a job whose work cannot be split by row leases or `SKIP LOCKED`. The lock is
   * held on a pooled connection, by at most all but one of the pool's at once (`LockTurns`).
   */
  exclusive?: { dataSource: DataSource; lock: string };
  /**
   * The audit actor of the changes its passes make (`<app>:<job>`, a system actor, CONTRACT
   * §8.1); without it a pass runs in the context of whatever scheduled it.
   */
  actor?: string;
  /** Called with each pass's result (e.g. to log what it did). */
  onResult?: (result: R) => void;
  /** Default: `realTimer`. */
  timer?: JobTimer;
}

/**
 * A job that runs every so often, one pass at a time in this process (a pass asked for while one
 * runs waits for it), optionally one replica at a time (`exclusive`), and stops cleanly: `stop()`
 * cancels the next pass and awaits the running one. The owner calls `start()` at bootstrap and
 * `stop()` at shutdown; `soon()` brings the next pass forward (e.g. after writing work for it).
 */
export class PeriodicJob<R = unknown> {
  private readonly logger: Logger;
  private readonly timer: JobTimer;
  private cancel?: () => void;
  private due = Number.POSITIVE_INFINITY;
  private running: Promise<unknown> = Promise.resolve();
  /** A timer's pass is under way (queued behind an explicit `runOnce` or running). */
  private passing = false;
  /** When a pass asked for during that one (`soon`) is due: it follows it, once. */
  private wantedAt?: number;
  private started = false;
  private stopped = false;

  constructor(private readonly options: PeriodicJobOptions<R>) {
    this.logger = new Logger(options.name);
    this.timer = options.timer ?? realTimer;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(this.jittered(this.options.firstAfter ?? 0));
  }

  /** The next pass starts within `delay` ms (or at its own time, if sooner). */
  soon(delay = 0): void {
    if (this.started) this.schedule(delay);
  }

  /**
   * One pass now, after the running one if any; undefined when stopped or when another replica
   * holds the `exclusive` lock. Errors reach the caller. What tests and flushes call.
   */
  runOnce(): Promise<R | undefined> {
    const pass = this.running
      .catch(() => undefined)
      .then(() => (this.stopped ? undefined : this.options.exclusive ? this.runLocked() : this.runAs()));
    this.running = pass;
    return pass;
  }

  /** No further pass; resolves once the running pass (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
    await this.running.catch(() => undefined);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    const at = Date.now() + delay;
    if (this.passing) {
      // The pass under way schedules the next when it ends: requests meanwhile become one pass
      // after it. Each one queued a pass of its own before, and under load (a pass longer than
      // the pauses, a job nudged several times a second) they piled up faster than they ran:
      // passes back to back with no pause, and a suspended pass each in memory.
      this.wantedAt = Math.min(this.wantedAt ?? at, at);
      return;
    }
    if (this.cancel && at >= this.due) return;
    this.cancel?.();
    this.due = at;
    this.cancel = this.timer.after(delay, () => {
      this.cancel = undefined;
      this.due = Number.POSITIVE_INFINITY;
      void this.pass();
    });
  }

  private async pass(): Promise<void> {
    const { every, after, onResult, retryAfter } = this.options;
    let pause = every;
    this.passing = true;
    try {
      const result = await this.runOnce();
      if (result !== undefined) {
        onResult?.(result);
        pause = after ? after(result) : every;
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Pass failed');
      pause = retryAfter ?? every;
    } finally {
      this.passing = false;
    }
    const wanted = this.wantedAt === undefined ? undefined : Math.max(0, this.wantedAt - Date.now());
    this.wantedAt = undefined;
    const next = this.jittered(pause);
    this.schedule(wanted === undefined ? next : Math.min(wanted, next));
  }

  private jittered(ms: number): number {
    const jitter = this.options.jitter ?? 0;
    return jitter > 0 ? Math.round(ms * (1 - jitter + Math.random() * 2 * jitter)) : ms;
  }

  private runAs(): Promise<R> {
    const { actor, run } = this.options;
    if (!actor) return run();
    return requestContext.run({ audit: { actor: { type: 'system', id: actor, name: null } } }, run);
  }

  private async runLocked(): Promise<R | undefined> {
    const { dataSource, lock } = this.options.exclusive!;
    const done = await lockTurnsOf(dataSource).take();
    // Stopped while it waited for its turn: no further pass.
    if (this.stopped) {
      done();
      return undefined;
    }
    const runner = dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }] = (await runner.query(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [lock],
      )) as { locked: boolean }[];
      if (!locked) return undefined;
      try {
        return await this.runAs();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
      }
    } finally {
      try {
        await runner.release();
      } finally {
        done();
      }
    }
  }
}
