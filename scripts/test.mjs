#!/usr/bin/env node
/**
 * `npm test`: the three Jest projects as runs side by side, after the build, each on a
 * nats-server of its own that this script starts (JetStream in a temporary directory) and hands
 * to the tests as TEST_NATS_URL:
 *
 *   - e2e, in E2E_SHARDS shards (default 2): each shard is a Jest run of its own with
 *     `--shard=<i>/<n>` (scripts/jest-sequencer.js deals the files by their time of an earlier
 *     run), whose global setup boots a whole stack of its own: every app on its NATS, fresh
 *     databases named after the run, free ports, its own log and storage directories. A shard's
 *     files run one at a time against its stack, so each test has a stack's data and limits to
 *     itself and its shard's files only, as if it were the only e2e run.
 *   - unit and integration: files one at a time too; the apps an integration file boots
 *     in-process use their own databases already.
 *
 * Apps on one NATS answer each other's requests (queue groups): with a server per run, no app of
 * one run answers another's, nor an app that `npm start` or a benchmark runs on the machine's
 * NATS. The runs share nothing but the PostgreSQL server, so the whole takes about as long as
 * the slowest e2e shard instead of the sum of the three projects (bench/ci-run.mjs times it).
 * Arguments go to every run (`npm test -- apps/acl`; a shard left without files boots no stack);
 * `--json-report=<file>` writes the runs' Jest JSON reports merged. The NATS servers are
 * @media/testing's `startNats`, from the build.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

const reportArg = process.argv.slice(2).find((arg) => arg.startsWith('--json-report='));
const jestArgs = process.argv.slice(2).filter((arg) => arg !== reportArg);
const report = reportArg?.slice('--json-report='.length);

/** Resolves with the exit code of `command`; stdio is this process's. */
function run(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Two by default: on 2 cores they took a clean-clone `.ci/run` from 16.3–17.3 to 12.7–14.3 min
 * (docs/benchmarks.md); `E2E_SHARDS=1` runs every e2e file against one stack.
 */
const shards = Number(process.env.E2E_SHARDS ?? 2);
if (!Number.isInteger(shards) || shards < 1)
  throw new Error(`E2E_SHARDS must be a whole number ≥ 1, not ${process.env.E2E_SHARDS}`);

/** One Jest run of `projects` on `nats`; `extra`: its own arguments (a shard). */
function jest(projects, name, nats, extra = []) {
  const output = report ? [`--json`, `--outputFile=${report}.${name}`] : [];
  // --forceExit: a test that failed midway can leave a handle open (a child's pipe, a socket),
  // and Jest then waits for it forever after writing its report (a CI run hung so); the global
  // teardown still runs before the exit.
  const args = [
    JEST,
    '--selectProjects',
    ...projects,
    '--runInBand',
    '--passWithNoTests',
    '--forceExit',
    ...extra,
  ];
  return run(process.execPath, [...args, ...output, ...jestArgs], {
    ...process.env,
    TEST_NATS_URL: nats.url,
  });
}

/** The runs' reports as one: counts summed, results and success combined (a run that wrote none failed). */
function mergeReports(names) {
  const written = names.filter((name) => existsSync(`${report}.${name}`));
  for (const name of names.filter((n) => !written.includes(n)))
    process.stderr.write(`npm test: the ${name} run wrote no report\n`);
  if (!written.length) return;
  const parts = written.map((name) => JSON.parse(readFileSync(`${report}.${name}`, 'utf8')));
  const merged = { ...parts[0], testResults: parts.flatMap((part) => part.testResults) };
  for (const key of Object.keys(parts[0]).filter((k) => /^num[A-Z]/.test(k))) {
    merged[key] = parts.reduce((sum, part) => sum + part[key], 0);
  }
  merged.success = written.length === names.length && parts.every((part) => part.success);
  merged.startTime = Math.min(...parts.map((part) => part.startTime));
  writeFileSync(report, JSON.stringify(merged));
  for (const name of names) rmSync(`${report}.${name}`, { force: true });
}

async function main() {
  const built = await run('npm', ['run', 'build', '--silent']);
  if (built !== 0) return built;
  const { startNats } = createRequire(import.meta.url)(join(ROOT, 'dist/libs/testing/src/nats-server.js'));
  const e2e = Array.from({ length: shards }, (_, i) => ({
    name: shards === 1 ? 'e2e' : `e2e-${i + 1}`,
    args: shards === 1 ? [] : [`--shard=${i + 1}/${shards}`],
  }));
  const names = [...e2e.map((shard) => shard.name), 'unit-integration'];
  // A report of an earlier run that stopped half-way is not this run's.
  if (report) for (const name of names) rmSync(`${report}.${name}`, { force: true });
  const servers = await Promise.all(names.map(() => startNats()));
  try {
    const codes = await Promise.all([
      ...e2e.map((shard, i) => jest(['e2e'], shard.name, servers[i], shard.args)),
      jest(['unit', 'integration'], 'unit-integration', servers[shards]),
    ]);
    if (report) mergeReports(names);
    return codes.find((code) => code !== 0) ?? 0;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

process.exitCode = await main();
