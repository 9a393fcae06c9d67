/**
 * Self time of a V8 CPU profile (`node --cpu-prof`) grouped by where the code comes from: an npm
 * package, the platform library, the app's own code, Node's internals, or V8's own entries
 * (garbage collection, program); and the functions that take the most.
 */
import { readFileSync } from 'node:fs';

function groupOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? `V8 ${functionName}` : `native: ${functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/libs/platform/')) return 'platform (libs/platform)';
  if (url.includes('/dist/libs/')) return `libs/${url.split('/dist/libs/')[1].split('/')[0]}`;
  if (url.includes('/dist/apps/')) return `app code (apps/${url.split('/dist/apps/')[1].split('/')[0]})`;
  return 'other';
}

function ranked(totals, busy, key) {
  return [...totals]
    .map(([name, us]) => ({
      [key]: name,
      ms: Math.round(us / 1000),
      us: Math.round(us),
      share: Number(((100 * us) / busy).toFixed(1)),
    }))
    .sort((a, b) => b.ms - a.ms);
}

/** Now on the clock V8's profiles use (CLOCK_MONOTONIC), in microseconds. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Of the profile at `path` (idle time left out), counting only samples taken between `from` and
 * `to` (monotonicMicros() of this machine, e.g. while a load ran): `groups`, self time per
 * group, largest first, and `functions`, the `top` functions by self time.
 */
export function selfTime(path, { from = 0, to = Infinity, top = 25 } = {}) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const groups = new Map();
  const functions = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < from || at > to) continue;
    const frame = frames.get(profile.samples[i]);
    const us = profile.timeDeltas[i + 1] ?? 0;
    const group = groupOf(frame);
    if (group === 'V8 (idle)') continue;
    groups.set(group, (groups.get(group) ?? 0) + us);
    const file = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '');
    const name = `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busy = [...groups.values()].reduce((a, b) => a + b, 0);
  return {
    groups: ranked(groups, busy, 'group'),
    functions: ranked(functions, busy, 'function').slice(0, top),
  };
}
