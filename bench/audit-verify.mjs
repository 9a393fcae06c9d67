#!/usr/bin/env node
/**
 * `npm run audit:verify` keeps its memory flat however long the export: it verifies an export of
 * ENTRIES/10 entries and one of ENTRIES entries, a million by default (entries hashed with `entryHash`, a signed checkpoint
 * every CHECKPOINT_EVERY entries, signed here with a key of the bench's own standing in for
 * acl's, in acl's format), each in a process of its own with bench/lib/memory-probe.cjs sampling
 * its memory from inside, and compares their peak RSS and used heap.
 *
 *   npm run build --silent && node bench/audit-verify.mjs
 *
 * The large export is then verified again with V8's old space capped at HEAP_CAP_MIB, a
 * small fraction of the file: it completes only if nothing is kept per line.
 *
 * Env: ENTRIES (1000000), CHECKPOINT_EVERY (10000), HEAP_CAP_MIB (32). Writes bench/results/audit-verify.json.
 */
import { spawn } from 'node:child_process';
import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, dist, log, root, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { entryHash, GENESIS_HASH } = require(dist('libs/core/src/audit/chain.js'));

const ENTRIES = Number(process.env.ENTRIES ?? 1_000_000);
const CHECKPOINT_EVERY = Number(process.env.CHECKPOINT_EVERY ?? 10_000);
const MAIN = dist('tools/audit-verify/src/main.js');
const PROBE = join(root, 'bench', 'lib', 'memory-probe.cjs');
const KID = 'bench-key';
/** The old-space cap of the second run of the large export. */
const HEAP_CAP_MIB = Number(process.env.HEAP_CAP_MIB ?? 32);
const dir = mkdtempSync(join(tmpdir(), 'audit-verify-bench-'));
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const b64url = (text) => Buffer.from(text).toString('base64url');
function jws(checkpoint) {
  const input = `${b64url(JSON.stringify({ alg: 'RS256', kid: KID }))}.${b64url(JSON.stringify(checkpoint))}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`;
}

/** Writes an export of `entries` entries and their checkpoints, streamed; answers its line count. */
async function writeExport(file, entries) {
  const out = createWriteStream(file);
  let prev = GENESIS_HASH;
  const actor = { type: 'user', id: randomUUID(), name: 'Ana Lima' };
  let lines = 0;
  for (let seq = 1; seq <= entries; seq++) {
    const entry = {
      id: randomUUID(),
      seq,
      at: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
      app: 'commercial',
      action: 'booking.line.asset.updated',
      actor,
      resource: { type: 'booking', id: randomUUID() },
      request_id: `req-${seq}`,
      cause: null,
      changes: { asset_id: [null, randomUUID()], status: ['DRAFT', 'CONFIRMED'] },
      prev_hash: prev,
    };
    prev = entryHash(entry);
    let text = `${JSON.stringify({ ...entry, hash: prev })}\n`;
    lines += 1;
    if (seq % CHECKPOINT_EVERY === 0 || seq === entries) {
      const checkpoint = {
        app: 'commercial',
        seq,
        hash: prev,
        at: new Date(Date.UTC(2026, 0, 2) + seq).toISOString(),
      };
      text += `${JSON.stringify({ checkpoint, jws: jws(checkpoint) })}\n`;
      lines += 1;
    }
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return lines;
}

/** Runs the CLI on `file` with the probe sampling every 250 ms; its outcome and memory. */
async function verify(file, keys, nodeArgs = []) {
  const samples = join(dir, `samples-${Date.now()}.ndjson`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--require', PROBE, MAIN, file, '--jwks', keys, '--json'],
    {
      env: { ...process.env, MEMORY_PROBE_FILE: samples, MEMORY_PROBE_MS: '250' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const [code] = await once(child, 'exit');
  const seconds = (performance.now() - started) / 1000;
  const memory = readFileSync(samples, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const report = JSON.parse(stdout);
  const quarter = Math.max(1, Math.floor(memory.length / 4));
  const mean = (list, key) => Number((list.reduce((sum, s) => sum + s[key], 0) / list.length).toFixed(1));
  return {
    exit_code: code,
    valid: report.valid,
    entries: report.entries,
    checkpoints: report.checkpoints,
    seconds: Number(seconds.toFixed(2)),
    lines_per_second: Math.round(report.entries / seconds),
    peak_rss_mib: Math.max(...memory.map((s) => s.rss)),
    peak_heap_used_mib: Math.max(...memory.map((s) => s.heap_used)),
    // Flat means the last quarter of the run holds no more than the second one.
    rss_second_quarter_mib: mean(memory.slice(quarter, 2 * quarter), 'rss'),
    rss_last_quarter_mib: mean(memory.slice(-quarter), 'rss'),
    heap_used_second_quarter_mib: mean(memory.slice(quarter, 2 * quarter), 'heap_used'),
    heap_used_last_quarter_mib: mean(memory.slice(-quarter), 'heap_used'),
    samples: memory.length,
  };
}

async function main() {
  const keys = join(dir, 'audit-keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      keys: [{ ...publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' }],
    }),
  );
  const runs = {};
  let capped;
  for (const entries of [Math.round(ENTRIES / 10), ENTRIES]) {
    const file = join(dir, `export-${entries}.ndjson`);
    const started = performance.now();
    const lines = await writeExport(file, entries);
    log(
      `wrote ${lines} lines (${entries} entries, ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    runs[entries] = {
      lines,
      file_mib: Math.round(statSync(file).size / 2 ** 20),
      ...(await verify(file, keys)),
    };
    log(JSON.stringify(runs[entries]));
    assert(
      runs[entries].exit_code === 0 && runs[entries].valid,
      `the export of ${entries} entries did not verify`,
    );
    if (entries === ENTRIES) {
      // The same export with V8's old space capped far below the file's size: it only completes
      // if nothing is kept per line.
      capped = await verify(file, keys, [`--max-old-space-size=${HEAP_CAP_MIB}`]);
      log(JSON.stringify(capped));
      assert(
        capped.exit_code === 0 && capped.valid,
        `the export did not verify within ${HEAP_CAP_MIB} MiB of heap`,
      );
    }
    rmSync(file);
  }
  const small = runs[Math.round(ENTRIES / 10)];
  const large = runs[ENTRIES];
  await writeResult('audit-verify.json', {
    measured_at: new Date().toISOString(),
    settings: { entries: ENTRIES, checkpoint_every: CHECKPOINT_EVERY },
    small,
    large,
    large_with_heap_capped: { max_old_space_mib: HEAP_CAP_MIB, ...capped },
    // ≈1 when memory does not grow with the export's length.
    peak_rss_ratio_large_to_small: Number((large.peak_rss_mib / small.peak_rss_mib).toFixed(2)),
  });
}

main()
  .catch((error) => {
    log(error?.stack ?? String(error));
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
