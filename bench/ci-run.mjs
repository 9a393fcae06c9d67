#!/usr/bin/env node
/**
 * How long CI takes: `bash .ci/run` on a clean clone of this repository's HEAD (committed work
 * only, as CI sees it), timed from outside. Each `==> step` line of the script starts a step;
 * Jest's per-file times come from the `dist/jest-results.json` that `.ci/run` writes, summed per
 * project (unit, integration, e2e), with the slowest files. The clone is removed afterwards
 * (kept with KEEP_CLONE=1); its log is kept beside it in the system's temporary directory.
 *
 *   node bench/ci-run.mjs
 *
 * Env: CI_CLONE_DIR (default: a new directory under the system's temporary directory),
 * BENCH_DATABASE_URL (the server asked for its version). With BENCH_QUICK=1 it does nothing:
 * CI has no small size.
 * Writes bench/results/ci-run.json. It runs what CI runs, so it takes as long (about 15 minutes
 * on this 2-core machine) and needs what `.ci/run` needs (PostgreSQL, NATS, podman).
 */
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { log, machine, root, withClient, writeResult } from './lib/seed-users.mjs';

const clone = process.env.CI_CLONE_DIR ?? mkdtempSync(join(tmpdir(), 'ci-run-'));
const logFile = `${clone}.log`;
const round1 = (x) => Number(x.toFixed(1));

/** Runs `.ci/run` in the clone; resolves with its exit code and the steps' start times (s). */
function runCi() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const steps = [];
    const out = createWriteStream(logFile);
    const child = spawn('bash', ['.ci/run'], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.pipe(out, { end: false });
    createInterface({ input: child.stdout }).on('line', (line) => {
      out.write(`${line}\n`);
      const step = /^==> (.*)$/.exec(line);
      if (step) {
        steps.push({ step: step[1], start_s: (performance.now() - started) / 1000 });
        log(`ci: ${step[1]}`);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      out.end();
      resolve({ code, total_s: (performance.now() - started) / 1000, steps });
    });
  });
}

/** Seconds per project and the slowest files, from Jest's JSON report. */
function jestTimes() {
  const file = join(clone, 'dist', 'jest-results.json');
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // Jest's JSON report names no project: a file's suffix says which it is (jest.config.js).
  const project = (name) =>
    name.endsWith('.e2e-spec.ts') ? 'e2e' : name.endsWith('.int-spec.ts') ? 'integration' : 'unit';
  const files = report.testResults.map((t) => ({
    file: relative(clone, t.name),
    project: project(t.name),
    seconds: round1((t.endTime - t.startTime) / 1000),
  }));
  const projects = {};
  for (const f of files) projects[f.project] = round1((projects[f.project] ?? 0) + f.seconds);
  const wall = Math.max(...report.testResults.map((t) => t.endTime)) - report.startTime;
  return {
    wall_seconds: round1(wall / 1000),
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    seconds_by_project: projects,
    slowest: [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 15),
  };
}

async function main() {
  if (process.env.BENCH_QUICK === '1') return log('ci: skipped with BENCH_QUICK=1 (CI has no small size)');
  execFileSync('git', ['clone', '--quiet', root, clone]);
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: clone }).toString().trim();
  log(`ci: running .ci/run on a clone of ${commit.slice(0, 7)} in ${clone} (log: ${logFile})`);
  const run = await runCi();
  const steps = run.steps.map((s, i) => ({
    step: s.step,
    seconds: round1((run.steps[i + 1]?.start_s ?? run.total_s) - s.start_s),
  }));
  const result = {
    benchmark: '.ci/run from a clean clone',
    measured_at: new Date().toISOString(),
    machine: await withClient(
      process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      machine,
    ),
    load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
    commit,
    exit_code: run.code,
    total_minutes: round1(run.total_s / 60),
    steps,
    jest: jestTimes(),
    log: logFile,
  };
  await writeResult('ci-run.json', result);
  if (process.env.KEEP_CLONE !== '1') rmSync(clone, { recursive: true, force: true });
  log(`ci: exit ${run.code} in ${result.total_minutes} min`);
  if (run.code !== 0) process.exitCode = 1;
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
