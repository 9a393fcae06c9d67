/**
 * Preloaded into an app (`node --require bench/lib/memory-probe.cjs ...`) by bench/memory.mjs:
 * every MEMORY_PROBE_MS (1000) it appends one JSON line to MEMORY_PROBE_FILE with the process's
 * own view of its memory, which /proc alone cannot split: process.memoryUsage() (rss, heapUsed,
 * heapTotal, external, arrayBuffers), V8's heap spaces (new, old, code, large objects...) and the
 * time spent in GC so far (minor: scavenges; major: mark-compact).
 * Plain Node, no dependency; its timer never keeps the process alive.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const v8 = require('node:v8');
const { constants, PerformanceObserver } = require('node:perf_hooks');

const file = process.env.MEMORY_PROBE_FILE;
const MIB = 1024 * 1024;
const mib = (bytes) => Math.round((bytes / MIB) * 100) / 100;

/** Time spent in GC pauses and their count, by kind, since the start (what a smaller heap costs). */
const gc = { minor_ms: 0, minor: 0, major_ms: 0, major: 0 };

function sample() {
  const usage = process.memoryUsage();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = { size: mib(s.space_size), used: mib(s.space_used_size) };
  }
  const line = {
    t: Date.now(),
    rss: mib(usage.rss),
    heap_total: mib(usage.heapTotal),
    heap_used: mib(usage.heapUsed),
    external: mib(usage.external),
    array_buffers: mib(usage.arrayBuffers),
    spaces,
    gc: { ...gc },
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

if (file) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const major = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
      gc[major ? 'major_ms' : 'minor_ms'] += entry.duration;
      gc[major ? 'major' : 'minor'] += 1;
    }
  }).observe({ entryTypes: ['gc'] });
  sample();
  setInterval(sample, Number(process.env.MEMORY_PROBE_MS ?? 1000)).unref();
}
