import { setFlagsFromString } from 'node:v8';

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
 * allocate most of what the process keeps, run with V8's own growth. The flag must exist:
 * `setFlagsFromString` ignores one it does not know, and the unit test checks that this Node has it.
 */
export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 1 || percent > 400) {
    throw new RangeError(`heap growth must be a whole percent from 1 to 400, not ${percent}`);
  }
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
