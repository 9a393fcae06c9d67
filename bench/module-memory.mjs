#!/usr/bin/env node
/**
 * What each package's code costs an app's heap: acl alone from dist (its own database, NATS of
 * NATS_URL) with bench/lib/module-memory-probe.cjs preloaded, which brackets every `require` with
 * full collections and charges the used heap's growth to the file's package (less its nested
 * requires). Reported: per package, the heap its code took when it was loaded (functions, their
 * bytecode, the objects its top level made: a DTO file's decorator metadata is its own app's),
 * its files and source bytes; and the used heap and RSS after the boot.
 *
 *   npm run build --silent && node bench/module-memory.mjs
 *
 * Env: NATS_URL, APP (acl), AFTER_MS (20000: when the report is taken, from the start), TOP (25).
 * Writes bench/results/module-memory.json.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, waitReady } from './lib/processes.mjs';
import { aclEnv, benchDatabase, dist, log, root, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys } = require(dist('libs/testing/src/tokens.js'));

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const AFTER_MS = Number(process.env.AFTER_MS ?? 20_000);
const TOP = Number(process.env.TOP ?? 25);
const PROBE = join(root, 'bench', 'lib', 'module-memory-probe.cjs');

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  const db = benchDatabase('bench_module_memory');
  await db.create();
  const keys = generateTestKeys();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const reportFile = join(tmpdir(), `bench-module-memory-${Date.now()}.json`);
  const { child, logFile, stop } = startProcess(
    'module-memory-acl',
    dist('apps/acl/src/main.js'),
    aclEnv(
      { port, databaseUrl: db.url, natsUrl: NATS_URL, keys },
      { MODULE_MEMORY_FILE: reportFile, MODULE_MEMORY_AFTER_MS: String(AFTER_MS) },
    ),
    { nodeArgs: ['--expose-gc', '--require', PROBE] },
  );
  try {
    await waitReady(`${url}/acl/health/ready`, { child, logFile, timeoutMs: 180_000 });
    for (let waited = 0; !existsSync(reportFile); waited += 500) {
      if (waited > AFTER_MS + 60_000) throw new Error(`no report in ${reportFile}; log in ${logFile}`);
      await sleep(500);
    }
    await sleep(200);
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const total = report.packages.reduce((sum, p) => sum + p.heap_mib, 0);
    await writeResult('module-memory.json', {
      benchmark: "what each package's code costs acl's heap (charged at require, between full GCs)",
      measured_at: new Date().toISOString(),
      node: process.version,
      load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
      after_boot: report.at_report,
      charged_at_require_mib: Number(total.toFixed(2)),
      packages: report.packages,
    });
    log(`used heap after boot ${report.at_report.heap_used_mib} MiB, RSS ${report.at_report.rss_mib} MiB`);
    for (const p of report.packages.slice(0, TOP)) {
      log(
        `${p.heap_mib.toFixed(2).padStart(7)} MiB  ${String(p.files).padStart(4)} files  ${p.source_mib.toFixed(2).padStart(6)} MiB source  ${p.package}`,
      );
    }
  } finally {
    await stop();
    await db.drop();
    rmSync(reportFile, { force: true });
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
