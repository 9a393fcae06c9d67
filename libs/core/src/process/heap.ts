import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The old-space growth of an app process alone, and of the nine apps in one (`npm start`). */
export const HEAP_GROWTH_PERCENT = { app: 50, embedded: 20 } as const;

/**
 * Sets how far V8 lets the old space grow past what survived the last major GC before it
 * collects again (`--heap-growing-percent`). By default V8 grows it eagerly, by a factor of up to
 * 4 while it believes the program is allocating fast, so under load a small app's heap, and its
 * resident memory, climbs to several times its live data. A smaller factor means more frequent
 * but smaller major GCs (docs/benchmarks.md, "Where an app's memory goes").
 *
 * V8 reads the flag each time it sets the next limit, so setting it at run time works; it is set
 * once a process has started (runProcess, the embedded runner), so that loading and booting, which
 * allocate most of what the process keeps, run with V8's own growth. The limit in force then was
 * set by boot's last major GC, with that eager growth, and would stand until the heap reached it
 * (the nine apps in one: 70 → 160 MiB of heap in the first 35 s of load), so one full collection
 * follows at once and sets the next limit with the new growth. The flag must exist:
 * `setFlagsFromString` ignores one it does not know, and the unit test checks that this Node has it.
 */
export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 1 || percent > 400) {
    throw new RangeError(`heap growth must be a whole percent from 1 to 400, not ${percent}`);
  }
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  collectGarbage();
}

/**
 * A full GC now, without `--expose-gc` on the command line: a context created while the flag is
 * set gets V8's `gc` function (this one keeps none), and the flag is unset again at once.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
