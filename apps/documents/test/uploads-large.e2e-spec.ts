/**
 * Large resumable uploads with the reference tus client (tus-js-client), 8 MiB chunks, through
 * the gateway: cut at about a third (the client aborted and a new one resuming from the same
 * URL; and separately a TCP proxy that drops the connection in the middle of a chunk), on the
 * filesystem driver, and on S3 (s3rver) with two documents replicas taking alternate requests.
 * The document's sha256 is the file's and its content downloads identical. TUS_E2E_SIZE sets the
 * file size (default 300 MB); the files are made in the temp directory and removed.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { freePort, spawnDist, waitReady } from '@media/testing';
import { Upload } from 'tus-js-client';
import { caller, documents, startDocuments, system, type Caller, type OwnDocuments } from './support';
import { startS3Server, type S3Server } from './s3-server';

const SIZE = Number(process.env.TUS_E2E_SIZE ?? 300_000_000);
const CHUNK = 8 * 1024 * 1024;
const RETRIES = [0, 200, 500, 1000, 2000, 3000, 5000, 5000];

let dir: string;
let file: string;
let fileSha256: string;

/** Random bytes written to a temp file; their SHA-256. */
async function makeFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  let made = 0;
  async function* blocks() {
    while (made < size) {
      const block = randomFillSync(Buffer.alloc(Math.min(1024 * 1024, size - made)));
      hash.update(block);
      made += block.length;
      yield block;
    }
  }
  await pipeline(Readable.from(blocks()), createWriteStream(path));
  return hash.digest('hex');
}

/** Runs one tus-js-client upload; `abortAt` aborts it once that many bytes are acknowledged. */
function tusUpload(
  who: Caller,
  options: { endpoint?: string; uploadUrl?: string; abortAt?: number },
): Promise<{ url: string; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const upload: Upload = new Upload(createReadStream(file), {
      endpoint: options.endpoint,
      uploadUrl: options.uploadUrl,
      chunkSize: CHUNK,
      retryDelays: RETRIES,
      headers: { authorization: `Bearer ${who.token}` },
      metadata: { filename: 'spot.mxf', content_type: 'application/mxf' },
      storeFingerprintForResuming: false,
      onChunkComplete: (_size, accepted) => {
        if (options.abortAt !== undefined && accepted >= options.abortAt) {
          upload.abort().then(() => resolve({ url: upload.url!, aborted: true }), reject);
        }
      },
      onSuccess: () => resolve({ url: upload.url!, aborted: false }),
      onError: reject,
    });
    upload.start();
  });
}

/** The document the upload became: its record, and the SHA-256 of its content as downloaded. */
async function documentOf(who: Caller, url: string, base: string) {
  const id = url.split('/').pop()!;
  const record = await documents(`/api/v1/documents/${id}`, { token: who.token }, base);
  const response = await fetch(`${base}/documents/api/v1/documents/${id}/content`, {
    headers: { authorization: `Bearer ${who.token}` },
  });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)) {
    hash.update(piece as Buffer);
    bytes += (piece as Buffer).length;
  }
  return { id, record: record.body, status: response.status, bytes, sha256: hash.digest('hex') };
}

async function expectDocument(who: Caller, url: string, base: string) {
  const doc = await documentOf(who, url, base);
  expect(doc.record).toEqual(
    expect.objectContaining({ id: doc.id, size: SIZE, sha256: fileSha256, filename: 'spot.mxf' }),
  );
  expect({ status: doc.status, bytes: doc.bytes, sha256: doc.sha256 }).toEqual({
    status: 200,
    bytes: SIZE,
    sha256: fileSha256,
  });
  // Its 300 MB leave the disk now rather than when the stack goes.
  const removed = await documents(
    `/api/v1/documents/${doc.id}`,
    { method: 'DELETE', token: who.token },
    base,
  );
  expect(removed.status).toBe(204);
}

/** A TCP proxy to `target` that, once, cuts the connection after `cutAfter` bytes from the client. */
async function cuttingProxy(target: URL, cutAfter: number) {
  let seen = 0;
  let cut = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (data: Buffer) => {
      seen += data.length;
      if (cut === 0 && seen >= cutAfter) {
        cut++;
        client.destroy();
        upstream.destroy();
        return;
      }
      if (!upstream.write(data)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
    const close = () => (client.destroy(), upstream.destroy());
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    cuts: () => cut,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP proxy that sends each request to the next of `targets` in turn (requests counted). */
async function roundRobin(targets: string[]) {
  let next = 0;
  const served = targets.map(() => ({}) as Record<string, number>);
  const server: Server = createHttpServer((req, res) => {
    const index = next++ % targets.length;
    served[index][req.method!] = (served[index][req.method!] ?? 0) + 1;
    const upstream = request(
      `${targets[index]}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tus-e2e-'));
  file = join(dir, 'spot.bin');
  fileSha256 = await makeFile(file, SIZE);
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the filesystem driver, through the gateway', () => {
  it('resumes from the same URL with a new client after an abort at a third', async () => {
    const who = caller();
    const endpoint = `${system().gatewayUrl}/documents/api/v1/uploads`;
    const first = await tusUpload(who, { endpoint, abortAt: SIZE / 3 });
    expect(first.aborted).toBe(true);
    const offset = await documents(new URL(first.url).pathname.replace(/^\/documents/, ''), {
      method: 'HEAD',
      token: who.token,
      headers: { 'tus-resumable': '1.0.0' },
    });
    expect(Number(offset.headers.get('upload-offset'))).toBeGreaterThanOrEqual(SIZE / 3);
    expect(Number(offset.headers.get('upload-offset'))).toBeLessThan(SIZE);
    const second = await tusUpload(who, { uploadUrl: first.url });
    expect(second).toEqual({ url: first.url, aborted: false });
    await expectDocument(who, first.url, system().gatewayUrl);
  }, 600_000);

  it('continues after a TCP connection dropped in the middle of a chunk', async () => {
    const who = caller();
    // A third of the file and half a chunk: the cut falls inside a PATCH body.
    const proxy = await cuttingProxy(new URL(system().gatewayUrl), Math.round(SIZE / 3 + CHUNK / 2));
    try {
      const done = await tusUpload(who, { endpoint: `${proxy.url}/documents/api/v1/uploads` });
      expect(proxy.cuts()).toBe(1);
      expect(done.url.startsWith(`${proxy.url}/documents/api/v1/uploads/`)).toBe(true);
      await expectDocument(who, done.url, system().gatewayUrl);
    } finally {
      await proxy.close();
    }
  }, 600_000);
});

describe('the S3 driver, two replicas taking alternate requests, through a gateway', () => {
  let s3: S3Server;
  let a: OwnDocuments;
  let b: OwnDocuments;
  let balancer: Awaited<ReturnType<typeof roundRobin>>;
  let gateway: ReturnType<typeof spawnDist>;
  let gatewayUrl: string;

  beforeAll(async () => {
    s3 = await startS3Server('documents-tus');
    const env = {
      DOCUMENTS_STORAGE: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    a = await startDocuments(env);
    b = await startDocuments({ ...env, DATABASE_URL: a.databaseUrl });
    balancer = await roundRobin([a.url, b.url]);
    const port = await freePort();
    gateway = spawnDist('gateway', {
      ...system().env,
      GATEWAY_PORT: String(port),
      // The stack's gateway holds its metrics port: this one takes any free one.
      GATEWAY_METRICS_PORT: '0',
      DOCUMENTS_URL: balancer.url,
      // Far below a chunk: tus chunks on the uploads path are exempt from the body limits.
      UPLOAD_LIMIT: '1mb',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    });
    gatewayUrl = `http://127.0.0.1:${port}`;
    await waitReady(`${gatewayUrl}/health/live`, gateway, 60_000);
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await balancer?.close();
    await b?.stop();
    await a?.stop();
    await s3?.stop();
  });

  it('resumes after an abort at a third; both replicas took chunks; the document is whole', async () => {
    const who = caller();
    const endpoint = `${gatewayUrl}/documents/api/v1/uploads`;
    const first = await tusUpload(who, { endpoint, abortAt: SIZE / 3 });
    expect(first.aborted).toBe(true);
    await tusUpload(who, { uploadUrl: first.url });
    expect(balancer.served[0].PATCH).toBeGreaterThanOrEqual(1);
    expect(balancer.served[1].PATCH).toBeGreaterThanOrEqual(1);
    await expectDocument(who, first.url, gatewayUrl);
  }, 600_000);

  it('continues after a TCP connection dropped in the middle of a chunk', async () => {
    const who = caller();
    const proxy = await cuttingProxy(new URL(gatewayUrl), Math.round(SIZE / 3 + CHUNK / 2));
    try {
      const done = await tusUpload(who, { endpoint: `${proxy.url}/documents/api/v1/uploads` });
      expect(proxy.cuts()).toBe(1);
      await expectDocument(who, done.url, gatewayUrl);
    } finally {
      await proxy.close();
    }
  }, 600_000);
});
