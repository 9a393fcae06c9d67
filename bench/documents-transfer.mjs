#!/usr/bin/env node
/**
 * documents' uploads and downloads of large files, through the gateway and directly: MB/s and
 * the resident memory (RSS, sampled from /proc every 10 ms) of the gateway and of documents,
 * idle and at the peak of each transfer. Both must stream: neither RSS may grow with the size
 * of the file, so each case runs at several sizes (SIZES, default 5,50,200 MB; UPLOAD_LIMIT is
 * raised above the largest for this run).
 *
 *   npx nx run-many -t build && node bench/documents-transfer.mjs
 *
 * Self-contained: creates its own database on BENCH_DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres) and drops it after, its own storage and temp
 * directories, serves a JWKS for the tokens it signs, and starts documents and the gateway from
 * dist/ on NATS_URL (default nats://127.0.0.1:4222). Files are random bytes read from disk and
 * the client streams them (multipart framing around a file stream) and hashes what it
 * downloads, so every transfer is checked byte for byte against the upload's sha256.
 * Env: SIZES, ROUNDS (default 3; medians reported), ROUTES (default gateway,direct),
 * KEEP_DB=1.
 *
 * The tus case: one resumable upload of TUS_MB (default 2000 MB) in TUS_CHUNK_MIB chunks
 * (default 64 MiB; each PATCH streamed from a range of the file), through the gateway and
 * directly, TUS_ROUNDS times (default 1): MB/s, the gateway ÷ direct ratio (goal ≥ 0.7), and
 * the RSS growth of both processes during it (goal < 64 MiB each). The document's sha256 (made
 * from the saved hash state, the file never read again) is checked against the file's.
 * CASES=multipart,tus (default both) picks the cases; a run of one keeps the other's figures
 * from the previous result file.
 * Writes bench/results/documents-transfer.json. The machine's cores are shared by the client,
 * the gateway, documents and PostgreSQL, so compare ratios (gateway vs direct) over absolutes.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_TOKEN_TTL, serveJwks } from './lib/app-server.mjs';
import { signToken, upstreamEnv } from './lib/edge.mjs';
import { freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';
import { dist, log, root, writeResult } from './lib/seed-users.mjs';

/** File sizes in MB (10^6 bytes); the largest is past the default UPLOAD_LIMIT, so it is raised. */
const SIZES = (process.env.SIZES ?? '5,50,200').split(',').map(Number);
const UPLOAD_LIMIT = `${Math.max(...SIZES) + 10}mb`;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUTES = (process.env.ROUTES ?? 'gateway,direct').split(',');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const MB = 1_000_000;
const CASES = (process.env.CASES ?? 'multipart,tus').split(',');
const TUS_MB = Number(process.env.TUS_MB ?? 2000);
const TUS_CHUNK = Number(process.env.TUS_CHUNK_MIB ?? 64) * 2 ** 20;
const TUS_ROUNDS = Number(process.env.TUS_ROUNDS ?? 1);

// ------------------------------------------------------------------ servers

function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Samples the RSS of some processes every 10 ms while `work` runs; peaks in bytes. */
async function sampled(pids, work) {
  const peaks = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rss(pid)]));
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) peaks[name] = Math.max(peaks[name], rss(pid));
  }, 10);
  try {
    const result = await work();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

// ------------------------------------------------------------------ client

/** Streams `path` as the `file` part of a multipart POST; resolves with the 201 body. */
function uploadFile(base, path, size, bearer) {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((done, fail) => {
    const req = request(`${base}/documents/api/v1/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('error', fail);
    req.on('response', async (res) => {
      const chunks = [];
      for await (const chunk of res) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      if (res.statusCode !== 201) fail(new Error(`upload: ${res.statusCode} ${text}`));
      else done(JSON.parse(text));
    });
    req.write(head);
    const file = createReadStream(path);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

/** Downloads a document's content, hashing it; resolves with its size and sha256. */
function downloadFile(base, id, bearer) {
  return new Promise((done, fail) => {
    const req = request(`${base}/documents/api/v1/documents/${id}/content`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    req.on('error', fail);
    req.on('response', async (res) => {
      if (res.statusCode !== 200) return fail(new Error(`download: ${res.statusCode}`));
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of res) {
        hash.update(chunk);
        size += chunk.length;
      }
      done({ size, sha256: hash.digest('hex') });
    });
    req.end();
  });
}

/** One HTTP exchange; resolves with the status, headers and body text. */
function exchange(url, options, body) {
  return new Promise((done, fail) => {
    const req = request(url, options);
    req.on('error', fail);
    req.on('response', async (res) => {
      const chunks = [];
      for await (const chunk of res) chunks.push(chunk);
      done({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() });
    });
    if (body) body.pipe(req);
    else req.end();
  });
}

/**
 * A resumable upload as a tus client makes it: creation, then one PATCH per chunk, each
 * streamed from its range of the file. Resolves with the document's id.
 */
async function tusUploadFile(base, path, size, bearer) {
  const tus = { authorization: `Bearer ${bearer}`, 'tus-resumable': '1.0.0' };
  const created = await exchange(`${base}/documents/api/v1/uploads`, {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(size), 'upload-metadata': `filename ${btoa('bench.bin')}` },
  });
  if (created.status !== 201) throw new Error(`tus creation: ${created.status} ${created.text}`);
  const location = created.headers.location;
  for (let offset = 0; offset < size; offset += TUS_CHUNK) {
    const end = Math.min(size, offset + TUS_CHUNK);
    const sent = await exchange(
      location,
      {
        method: 'PATCH',
        headers: {
          ...tus,
          'content-type': 'application/offset+octet-stream',
          'content-length': String(end - offset),
          'upload-offset': String(offset),
        },
      },
      createReadStream(path, { start: offset, end: end - 1 }),
    );
    if (sent.status !== 204) throw new Error(`tus PATCH at ${offset}: ${sent.status} ${sent.text}`);
  }
  return location.split('/').pop();
}

function removeDocument(base, id, bearer) {
  return exchange(`${base}/documents/api/v1/documents/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${bearer}` },
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = (bytes) => Number((bytes / 2 ** 20).toFixed(1));

// ------------------------------------------------------------------ main

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-documents-'));
  const database = `bench_documents_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${database}`;

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench-documents';
  const jwks = await serveJwks({ publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }), kid });

  const [documentsPort, gatewayPort] = [await freePort(), await freePort()];
  const documentsUrl = `http://127.0.0.1:${documentsPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const tmp = join(work, 'tmp');
  mkdirSync(tmp);
  const common = {
    JWT_JWKS_URL: jwks.url,
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    LOG_LEVEL: 'warn',
    NATS_URL,
    UPLOAD_LIMIT,
  };
  const children = [];
  const start = (name, env) => {
    const { child } = startProcess(
      name,
      dist(`apps/${name}/src/main.js`),
      { ...common, ...env },
      { stderr: 'inherit' },
    );
    children.push(child);
    return child;
  };
  const documents = start('documents', {
    PORT: String(documentsPort),
    DOCUMENTS_PORT: String(documentsPort),
    DATABASE_URL: dbUrl.toString(),
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    STORAGE_DIR: join(work, 'store'),
    // The temp files of uploads on the storage's filesystem, so storing one is a rename.
    TMPDIR: tmp,
  });
  const gateway = start('gateway', {
    ...upstreamEnv('http://127.0.0.1:9', { DOCUMENTS_URL: documentsUrl }),
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_METRICS_PORT: '0',
    PORT: String(gatewayPort),
    RATE_LIMIT_PER_MINUTE: '0',
  });

  const stop = async () => {
    for (const child of children) await stopProcess(child);
    await jwks.stop();
    if (!process.env.KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
  };

  try {
    await waitReady(`${documentsUrl}/documents/health/ready`, { child: documents, intervalMs: 150 });
    await waitReady(`${gatewayUrl}/health/live`, { child: gateway, intervalMs: 150 });
    const bearer = signToken(privateKey, kid, ['documents:write']);
    const pids = { gateway: gateway.pid, documents: documents.pid };

    const files = {};
    const makeFile = async (mb) => {
      const path = join(work, `file-${mb}.bin`);
      const out = createWriteStream(path);
      const hash = createHash('sha256');
      for (let written = 0; written < mb * MB; written += MB) {
        const block = randomBytes(Math.min(MB, mb * MB - written));
        hash.update(block);
        if (!out.write(block)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      files[mb] = { path, size: mb * MB, sha256: hash.digest('hex') };
    };
    for (const mb of SIZES) await makeFile(mb);
    // Warm both paths, then let the processes settle: that is idle.
    const smallest = files[Math.min(...SIZES)];
    const warm = await uploadFile(gatewayUrl, smallest.path, smallest.size, bearer);
    await downloadFile(gatewayUrl, warm.id, bearer);
    await new Promise((r) => setTimeout(r, 1500));

    const cases = [];
    for (const mb of CASES.includes('multipart') ? SIZES : []) {
      for (const [route, base] of [
        ['gateway', gatewayUrl],
        ['direct', documentsUrl],
      ].filter(([route]) => ROUTES.includes(route))) {
        const rounds = { upload: [], download: [] };
        for (let round = 0; round < ROUNDS; round++) {
          await new Promise((r) => setTimeout(r, 500));
          const idleUp = { gateway: rss(gateway.pid), documents: rss(documents.pid) };
          const t0 = performance.now();
          const up = await sampled(pids, () => uploadFile(base, files[mb].path, files[mb].size, bearer));
          const upSeconds = (performance.now() - t0) / 1000;
          await new Promise((r) => setTimeout(r, 500));
          const idleDown = { gateway: rss(gateway.pid), documents: rss(documents.pid) };
          const t1 = performance.now();
          const down = await sampled(pids, () => downloadFile(base, up.result.id, bearer));
          const downSeconds = (performance.now() - t1) / 1000;
          if (down.result.sha256 !== up.result.sha256 || down.result.size !== files[mb].size)
            throw new Error(`${route} ${mb} MB: the download differs from the upload`);
          rounds.upload.push({ seconds: upSeconds, idle: idleUp, peak: up.peaks });
          rounds.download.push({ seconds: downSeconds, idle: idleDown, peak: down.peaks });
        }
        for (const direction of ['upload', 'download']) {
          const runs = rounds[direction];
          const figure = {
            route,
            direction,
            file_mb: mb,
            mb_per_second: Number(median(runs.map((r) => mb / r.seconds)).toFixed(1)),
            seconds_median: Number(median(runs.map((r) => r.seconds)).toFixed(3)),
            rss_mib: {},
          };
          for (const proc of route === 'gateway' ? ['gateway', 'documents'] : ['documents']) {
            figure.rss_mib[proc] = {
              idle: mib(median(runs.map((r) => r.idle[proc]))),
              peak: mib(Math.max(...runs.map((r) => r.peak[proc]))),
              growth_max: mib(Math.max(...runs.map((r) => r.peak[proc] - r.idle[proc]))),
            };
          }
          log(
            `${route.padEnd(7)} ${direction.padEnd(8)} ${String(mb).padStart(3)} MB: ${figure.mb_per_second} MB/s,`,
            Object.entries(figure.rss_mib)
              .map(([p, v]) => `${p} RSS ${v.idle} -> ${v.peak} MiB (+${v.growth_max})`)
              .join(', '),
          );
          cases.push(figure);
        }
      }
    }
    let tus;
    if (CASES.includes('tus')) {
      await makeFile(TUS_MB);
      const file = files[TUS_MB];
      const routes = [
        ['gateway', gatewayUrl],
        ['direct', documentsUrl],
      ];
      const rates = {};
      for (const [route, base] of routes) {
        const runs = [];
        for (let round = 0; round < TUS_ROUNDS; round++) {
          await new Promise((r) => setTimeout(r, 1000));
          const idle = { gateway: rss(gateway.pid), documents: rss(documents.pid) };
          const t0 = performance.now();
          const up = await sampled(pids, () => tusUploadFile(base, file.path, file.size, bearer));
          const seconds = (performance.now() - t0) / 1000;
          const record = JSON.parse(
            (
              await exchange(`${base}/documents/api/v1/documents/${up.result}`, {
                headers: { authorization: `Bearer ${bearer}` },
              })
            ).text,
          );
          if (record.sha256 !== file.sha256 || record.size !== file.size)
            throw new Error(`tus ${route}: the document's sha256 or size is not the file's`);
          await removeDocument(base, up.result, bearer);
          runs.push({ seconds, idle, peak: up.peaks });
        }
        const figure = {
          kind: 'tus',
          route,
          direction: 'upload',
          file_mb: TUS_MB,
          chunk_mib: TUS_CHUNK / 2 ** 20,
          mb_per_second: Number(median(runs.map((r) => TUS_MB / r.seconds)).toFixed(1)),
          seconds_median: Number(median(runs.map((r) => r.seconds)).toFixed(3)),
          rss_mib: {},
        };
        for (const proc of route === 'gateway' ? ['gateway', 'documents'] : ['documents']) {
          figure.rss_mib[proc] = {
            idle: mib(median(runs.map((r) => r.idle[proc]))),
            peak: mib(Math.max(...runs.map((r) => r.peak[proc]))),
            growth_max: mib(Math.max(...runs.map((r) => r.peak[proc] - r.idle[proc]))),
          };
        }
        rates[route] = figure.mb_per_second;
        log(
          `tus ${route.padEnd(7)} upload ${TUS_MB} MB in ${figure.chunk_mib} MiB chunks: ${figure.mb_per_second} MB/s,`,
          Object.entries(figure.rss_mib)
            .map(([p, v]) => `${p} RSS ${v.idle} -> ${v.peak} MiB (+${v.growth_max})`)
            .join(', '),
        );
        cases.push(figure);
      }
      const growth = (proc) =>
        Math.max(
          ...cases.filter((c) => c.kind === 'tus' && c.rss_mib[proc]).map((c) => c.rss_mib[proc].growth_max),
        );
      tus = {
        file_mb: TUS_MB,
        chunk_mib: TUS_CHUNK / 2 ** 20,
        gateway_over_direct: Number((rates.gateway / rates.direct).toFixed(2)),
        rss_growth_mib: { gateway: growth('gateway'), documents: growth('documents') },
      };
      log(
        `tus: gateway ÷ direct ${tus.gateway_over_direct}, RSS growth ${JSON.stringify(tus.rss_growth_mib)} MiB`,
      );
    }
    // A run of one kind keeps the other kind's figures from the previous result.
    let previous = {};
    try {
      previous = JSON.parse(
        readFileSync(
          join(process.env.BENCH_RESULTS_DIR ?? join(root, 'bench', 'results'), 'documents-transfer.json'),
          'utf8',
        ),
      );
    } catch {
      previous = {};
    }
    const kept = (previous.cases ?? []).filter((c) =>
      c.kind === 'tus' ? !CASES.includes('tus') : !CASES.includes('multipart'),
    );
    cases.push(...kept);
    if (!tus && previous.tus) tus = previous.tus;
    const results = {
      benchmark: 'documents-transfer',
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      settings: {
        sizes_mb: SIZES,
        upload_limit: UPLOAD_LIMIT,
        rounds: ROUNDS,
        storage: 'fs (rename from TMPDIR)',
        mb: '10^6 bytes',
      },
      cases,
      tus,
    };
    await writeResult('documents-transfer.json', results);
  } finally {
    await stop();
  }
}

await main();
