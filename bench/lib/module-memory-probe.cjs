/**
 * Preloaded into an app (`node --expose-gc --require bench/lib/module-memory-probe.cjs ...`) by
 * bench/module-memory.mjs: what each package's code costs the heap. Every `require` that enters
 * a package from another is bracketed by full collections, and the growth of the used heap
 * during it, less that of the requires of other packages nested in it, is charged to the file's
 * package (`node:` built-ins, each
 * `node_modules` package, each `libs/<lib>` and `apps/<app>` of the build), with its source
 * bytes and the files loaded. MODULE_MEMORY_FILE receives one JSON line when the process has
 * been ready for a while (after MODULE_MEMORY_AFTER_MS, 15 s): the charges, and the used heap
 * (after a full collection) and RSS then.
 * Slow (two collections per package entered): a measurement, never for a running service.
 */
'use strict';
const Module = require('node:module');
const { statSync, writeFileSync } = require('node:fs');
const v8 = require('node:v8');

const file = process.env.MODULE_MEMORY_FILE;
const gc = globalThis.gc;
const MIB = 1024 * 1024;
const mib = (bytes) => Math.round((bytes / MIB) * 100) / 100;

/** The package a resolved file belongs to. */
function packageOf(path) {
  if (!path.includes('/')) return 'node: built-ins';
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = path.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const dist = /\/dist\/((?:libs|apps|tools)\/[^/]+)\//.exec(path);
  return dist ? dist[1] : 'other';
}

const heapUsed = () => {
  gc();
  return v8.getHeapStatistics().used_heap_size;
};

const charges = new Map();
/** One more file of `name`'s: its charge, created on first use. */
function count(name, resolved) {
  let charge = charges.get(name);
  if (!charge) charges.set(name, (charge = { files: 0, source_bytes: 0, heap_bytes: 0 }));
  charge.files += 1;
  try {
    if (resolved.includes('/')) charge.source_bytes += statSync(resolved).size;
  } catch {
    // a built-in, or a file gone: no size
  }
  return charge;
}
const loaded = new Set();
/** Heap growth of the requires running, innermost last, each less its nested ones. */
const stack = [];
let lastLoad = 0;

if (file && typeof gc === 'function') {
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    let resolved;
    try {
      resolved = Module._resolveFilename(request, parent, isMain);
    } catch {
      return load.apply(this, arguments);
    }
    if (loaded.has(resolved)) return load.apply(this, arguments);
    loaded.add(resolved);
    const name = packageOf(resolved);
    // Within a package its files are not bracketed (their cost is the enclosing file's, of the same
    // package): collections only where a require crosses into another package, a few hundred.
    if (parent?.filename && packageOf(parent.filename) === name) {
      count(name, resolved);
      return load.apply(this, arguments);
    }
    const frame = { nested: 0 };
    stack.push(frame);
    const before = heapUsed();
    try {
      return load.apply(this, arguments);
    } finally {
      const grew = heapUsed() - before;
      stack.pop();
      if (stack.length > 0) stack[stack.length - 1].nested += grew;
      count(name, resolved).heap_bytes += grew - frame.nested;
      lastLoad = Date.now();
    }
  };

  const snapshot = () => ({ heap_used_mib: mib(heapUsed()), rss_mib: mib(process.memoryUsage().rss) });
  setTimeout(
    () => {
      const report = {
        at_report: snapshot(),
        ms_since_last_require: Date.now() - lastLoad,
        packages: [...charges]
          .map(([name, c]) => ({
            package: name,
            files: c.files,
            source_mib: mib(c.source_bytes),
            heap_mib: mib(c.heap_bytes),
          }))
          .sort((a, b) => b.heap_mib - a.heap_mib),
      };
      writeFileSync(file, `${JSON.stringify(report)}\n`);
    },
    Number(process.env.MODULE_MEMORY_AFTER_MS ?? 15_000),
  ).unref();
}
