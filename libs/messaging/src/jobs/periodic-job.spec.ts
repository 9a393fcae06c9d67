import { PeriodicJob, type JobTimer } from './periodic-job';

/** A timer moved by the test: `fire()` runs what is due next, as the clock would. */
class HandTimer implements JobTimer {
  pending: { ms: number; fn: () => void }[] = [];

  after(ms: number, fn: () => void): () => void {
    const entry = { ms, fn };
    this.pending.push(entry);
    return () => (this.pending = this.pending.filter((p) => p !== entry));
  }

  /** The pauses currently waiting. */
  get delays(): number[] {
    return this.pending.map((p) => p.ms);
  }

  fire(): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no pass is scheduled');
    next.fn();
  }
}

/** A pass the test finishes by hand. */
function gate<T>() {
  let release!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { promise, release, fail };
}

/** Lets pending promise callbacks run (no clock involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PeriodicJob', () => {
  it('runs the first pass after firstAfter, then every `every` after each pass ends', async () => {
    const timer = new HandTimer();
    let passes = 0;
    const job = new PeriodicJob({ name: 't', every: 500, firstAfter: 10, timer, run: async () => ++passes });
    job.start();
    expect(timer.delays).toEqual([10]);
    timer.fire();
    await settle();
    expect(passes).toBe(1);
    expect(timer.delays).toEqual([500]);
    timer.fire();
    await settle();
    expect(passes).toBe(2);
    await job.stop();
  });

  it('takes the next pause from the pass result, and retryAfter after a failure', async () => {
    const timer = new HandTimer();
    const results = [100, 3];
    const job = new PeriodicJob({
      name: 't',
      every: 500,
      retryAfter: 2000,
      timer,
      after: (n: number) => (n === 100 ? 0 : 500),
      run: async () => {
        const next = results.shift();
        if (next === undefined) throw new Error('boom');
        return next;
      },
    });
    job.start();
    timer.fire();
    await settle();
    expect(timer.delays).toEqual([0]);
    timer.fire();
    await settle();
    expect(timer.delays).toEqual([500]);
    timer.fire();
    await settle();
    expect(timer.delays).toEqual([2000]);
    await job.stop();
  });

  it('never runs two passes at once: a pass asked for during one starts after it', async () => {
    const timer = new HandTimer();
    const first = gate<void>();
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    const job = new PeriodicJob({
      name: 't',
      every: 500,
      timer,
      run: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        passes++;
        if (passes === 1) await first.promise;
        active--;
      },
    });
    job.start();
    timer.fire();
    await settle();
    const second = job.runOnce();
    job.soon(0);
    // Asked for during a pass, the next is scheduled when that pass ends.
    expect(timer.delays).toEqual([]);
    await settle();
    expect(passes).toBe(1);
    first.release();
    await second;
    await settle();
    expect(passes).toBe(2);
    expect(timer.delays).toEqual([0]);
    timer.fire();
    await settle();
    expect(passes).toBe(3);
    expect(maxActive).toBe(1);
    await job.stop();
  });

  it('makes any number of requests during a pass one pass after it, never a queue of passes', async () => {
    const timer = new HandTimer();
    const slow = gate<void>();
    let passes = 0;
    const job = new PeriodicJob({
      name: 't',
      every: 500,
      timer,
      run: async () => {
        passes++;
        if (passes === 1) await slow.promise;
      },
    });
    job.start();
    timer.fire();
    await settle();
    // A nudge after every write, several a second, while one long pass runs.
    for (let i = 0; i < 50; i++) job.soon(i % 2 === 0 ? 0 : 300);
    await settle();
    expect(timer.delays).toEqual([]);
    slow.release();
    await settle();
    expect(passes).toBe(1);
    expect(timer.delays).toEqual([0]);
    timer.fire();
    await settle();
    expect(passes).toBe(2);
    // Then back to its own pace: nothing else was left queued.
    expect(timer.delays).toEqual([500]);
    await job.stop();
  });

  it('keeps one pending timer: soon() brings it forward, a later request does not push it back', async () => {
    const timer = new HandTimer();
    const job = new PeriodicJob({ name: 't', every: 500, firstAfter: 1000, timer, run: async () => 1 });
    job.start();
    job.soon(20);
    expect(timer.delays).toEqual([20]);
    job.soon(300);
    expect(timer.delays).toEqual([20]);
    await job.stop();
    expect(timer.delays).toEqual([]);
  });

  it('stop() waits for the running pass and schedules nothing after it', async () => {
    const timer = new HandTimer();
    const pass = gate<void>();
    let ended = false;
    const job = new PeriodicJob({
      name: 't',
      every: 500,
      timer,
      run: async () => {
        await pass.promise;
        ended = true;
      },
    });
    job.start();
    timer.fire();
    await settle();
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    pass.release();
    await stopping;
    expect(ended).toBe(true);
    expect(timer.delays).toEqual([]);
    expect(await job.runOnce()).toBeUndefined();
  });

  it('stop() also ends cleanly when the running pass fails', async () => {
    const timer = new HandTimer();
    const pass = gate<void>();
    const job = new PeriodicJob({ name: 't', every: 500, timer, run: () => pass.promise });
    job.start();
    timer.fire();
    await settle();
    const stopping = job.stop();
    pass.fail(new Error('storage gone'));
    await expect(stopping).resolves.toBeUndefined();
    expect(timer.delays).toEqual([]);
  });

  it('spreads pauses by the jitter fraction, never beyond it', async () => {
    const timer = new HandTimer();
    const job = new PeriodicJob({ name: 't', every: 1000, jitter: 0.2, timer, run: async () => 1 });
    job.start();
    for (let i = 0; i < 20; i++) {
      timer.fire();
      await settle();
      const [delay] = timer.delays;
      expect(delay).toBeGreaterThanOrEqual(800);
      expect(delay).toBeLessThanOrEqual(1200);
    }
    await job.stop();
  });
});
