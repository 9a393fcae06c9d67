#!/usr/bin/env node
// `npm start`'s build step: runs the Nx build only when a source changed since the last build.
// Nx's own cache check costs seconds (project graph, hashing every input); comparing
// modification times is milliseconds. A directory's mtime changes when an entry is added,
// removed or renamed, so deleted files count as changes too. `npm run build` is this script with
// `--always`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const STAMP = join(ROOT, 'dist', '.build-stamp');
/** What a build reads: the sources, and the files every project's build depends on. */
const SOURCE_DIRS = ['apps', 'libs', 'tools'];
const ROOT_FILES = ['package-lock.json', 'nx.json', 'tsconfig.base.json', 'tsconfig.json', '.swcrc'];
const SKIPPED = new Set(['node_modules', 'test', 'dist', '.nx']);

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest mtime under `dir`, stopping early once one is newer than `since`. */
function newest(dir, since) {
  let latest = mtime(dir);
  if (latest > since) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.endsWith('.spec.ts')) continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path, since) : mtime(path));
    if (latest > since) return latest;
  }
  return latest;
}

export function isStale(root = ROOT, stamp = STAMP) {
  const built = mtime(stamp);
  if (!built) return true;
  if (ROOT_FILES.some((file) => mtime(join(root, file)) > built)) return true;
  return SOURCE_DIRS.some((dir) => newest(join(root, dir), built) > built);
}

/**
 * Records a build that started at `startedAt` as the last one. Every build path writes it (`npm
 * run build` too): a cache hit of `nx run-many -t build` deletes and rewrites every output, so an
 * `npm start` that rebuilt after a build that left no stamp would pull dist/ from under the apps
 * already running from it (in `npm test`, tools/embedded/test/process-manager.e2e-spec.ts's
 * `npm start` beside the other runs' stacks).
 */
function writeStamp(startedAt) {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  writeFileSync(STAMP, '');
  utimesSync(STAMP, startedAt, startedAt);
}

if (process.argv[1] === import.meta.filename) {
  // `--always` (`npm run build`): build whatever the stamp says, and show Nx's output.
  const always = process.argv.includes('--always');
  if (always || isStale()) {
    // The stamp is taken before the build: a file saved while it runs is seen next time. The old
    // one goes first: a build stopped half-way (a cache hit deletes its outputs, then restores
    // them) leaves none, and the next start builds again.
    const startedAt = new Date();
    rmSync(STAMP, { force: true });
    const build = spawnSync(join(ROOT, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', always ? 'inherit' : 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (build.status !== 0) {
      if (!always) process.stderr.write(build.stdout ?? '');
      if (build.error) process.stderr.write(`nx run-many -t build: ${build.error.message}\n`);
      process.exit(build.status ?? 1);
    }
    writeStamp(startedAt);
  }
}
