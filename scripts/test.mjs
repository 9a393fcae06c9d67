#!/usr/bin/env node
/**
 * `npm test`: the three Jest projects as two runs side by side, after the build, each on a
 * nats-server of its own that this script starts (JetStream in a temporary directory) and hands
 * to the tests as TEST_NATS_URL:
 *
 *   - e2e: one stack of every app (the global setup), its files one at a time: they share that
 *     stack's data and limits.
 *   - unit and integration: files one at a time too; the apps an integration file boots
 *     in-process use their own databases already.
 *
 * Apps on one NATS answer each other's requests (queue groups): with a server per run, no app of
 * one run answers the other's, nor an app that `npm start` or a benchmark runs on the machine's
 * NATS. The two runs share nothing but the PostgreSQL server, so the whole takes about as long as
 * the e2e project alone instead of the sum of the three (bench/ci-run.mjs times it). Arguments
 * go to both runs (`npm test -- apps/acl`); `--json-report=<file>` writes both runs' Jest JSON
 * reports merged. The NATS servers are @media/testing's `startNats`, from the build.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function jest(projects, name, nats) {
  const output = report ? [`--json`, `--outputFile=${report}.${name}`] : [];
  const args = [JEST, '--selectProjects', ...projects, '--runInBand', '--passWithNoTests'];
  return run(process.execPath, [...args, ...output, ...jestArgs], {
    ...process.env,
    TEST_NATS_URL: nats.url,
  });
}

/** Both runs' reports as one: counts summed, results and success combined. */
function mergeReports(names) {
  const parts = names.map((name) => JSON.parse(readFileSync(`${report}.${name}`, 'utf8')));
  const merged = { ...parts[0], testResults: parts.flatMap((part) => part.testResults) };
  for (const key of Object.keys(parts[0]).filter((k) => /^num[A-Z]/.test(k))) {
    merged[key] = parts.reduce((sum, part) => sum + part[key], 0);
  }
  merged.success = parts.every((part) => part.success);
  merged.startTime = Math.min(...parts.map((part) => part.startTime));
  writeFileSync(report, JSON.stringify(merged));
  for (const name of names) rmSync(`${report}.${name}`, { force: true });
}

async function main() {
  const built = await run('npm', ['run', 'build', '--silent']);
  if (built !== 0) return built;
  const { startNats } = createRequire(import.meta.url)(join(ROOT, 'dist/libs/testing/src/nats-server.js'));
  const servers = [await startNats(), await startNats()];
  try {
    const codes = await Promise.all([
      jest(['e2e'], 'e2e', servers[0]),
      jest(['unit', 'integration'], 'unit-integration', servers[1]),
    ]);
    if (report) mergeReports(['e2e', 'unit-integration']);
    return codes.find((code) => code !== 0) ?? 0;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

process.exitCode = await main();
