import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { JobTimer, PeriodicJob } from './periodic-job';
import { periodicJobProvider, periodicJobToken } from './periodic-job.provider';

@Injectable()
class Counter {
  passes = 0;
  async count(): Promise<number> {
    return ++this.passes;
  }
}

/** Runs nothing by itself: the test fires the first pass. */
class HandTimer implements JobTimer {
  pending: (() => void)[] = [];
  after(_ms: number, fn: () => void): () => void {
    this.pending.push(fn);
    return () => (this.pending = this.pending.filter((p) => p !== fn));
  }
}

describe('periodicJobProvider', () => {
  it('builds the job from injected providers, starts it at bootstrap and stops it at shutdown', async () => {
    const timer = new HandTimer();
    @Module({
      providers: [
        Counter,
        periodicJobProvider({
          name: 'Counting',
          inject: [Counter],
          useFactory: (counter: Counter) => ({ every: 1_000, timer, run: () => counter.count() }),
        }),
      ],
    })
    class CountingModule {}
    const app = await NestFactory.createApplicationContext(CountingModule, { logger: false });
    // Started: the first pass is scheduled; running it calls into the injected provider.
    expect(timer.pending).toHaveLength(1);
    timer.pending.shift()!();
    const job = app.get<PeriodicJob<number>>(periodicJobToken('Counting'));
    await job.runOnce();
    expect(app.get(Counter).passes).toBe(2);
    await app.close();
    // Stopped: nothing more is scheduled and a pass asked for does not run.
    expect(timer.pending).toHaveLength(0);
    expect(await job.runOnce()).toBeUndefined();
  });
});
