/**
 * documents processes of the test's own, so what an upload leaves on disk and in memory can be
 * watched: the 413 and a client that disconnects leave nothing behind, a 20 MB upload is
 * streamed (resident memory grows by less than 16 MB), the sweeper removes files without a live
 * record, and two replicas on the S3 driver share one bucket (against a real s3rver).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  BOOT_MS,
  caller,
  db,
  download,
  eventually,
  filesUnder,
  multipart,
  startDocuments,
  upload,
  uploaded,
  type Caller,
  type OwnDocuments,
} from './support';
import { startS3Server, type S3Server } from './s3-server';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The documents' files in an app's storage (not the installation's `.owner` claim). */
const storedFiles = (app: OwnDocuments) => filesUnder(app.storageDir).filter((f) => f !== '.owner');
const rows = async (app: OwnDocuments) => (await db(app.databaseUrl, 'SELECT id FROM documents')).length;

/** Resident memory once it has stopped moving: two readings 100 ms apart within 1 MiB. */
async function steadyRss(app: OwnDocuments): Promise<number> {
  // The first probe has nothing to compare with (NaN), so the first pair is 100 ms apart.
  let previous = Number.NaN;
  let current = Number.NaN;
  const moved = await eventually(
    async () => {
      [previous, current] = [current, app.rss()];
      return Math.abs(current - previous);
    },
    (change) => change < 2 ** 20,
    10_000,
  );
  expect(moved).toBeLessThan(2 ** 20);
  return current;
}

describe('limits and leftovers (filesystem driver)', () => {
  let app: OwnDocuments;
  const LIMIT = 1024 * 1024;

  beforeAll(async () => {
    app = await startDocuments({ UPLOAD_LIMIT: String(LIMIT) });
  }, BOOT_MS);
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 413 over UPLOAD_LIMIT and leaves no file, temp file or row; just under it is stored', async () => {
    const writer = caller();
    const over = await upload(writer, randomBytes(LIMIT + 1), { base: app.url });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe('payload_too_large');
    expect(storedFiles(app)).toEqual([]);
    expect(
      await eventually(
        async () => filesUnder(app.tempDir),
        (f) => f.length === 0,
      ),
    ).toEqual([]);
    expect(await rows(app)).toBe(0);

    // The limit counts the whole multipart body, so leave room for the part's headers.
    const under = await upload(writer, randomBytes(LIMIT - 1024), { base: app.url });
    expect(under.status).toBe(201);
    expect(storedFiles(app)).toHaveLength(1);
    expect(await rows(app)).toBe(1);
    expect(
      await eventually(
        async () => filesUnder(app.tempDir),
        (f) => f.length === 0,
      ),
    ).toEqual([]);
  });

  it('leaves nothing behind when the client disconnects mid-upload', async () => {
    const before = { stored: storedFiles(app).length, rows: await rows(app) };
    const { body, contentType } = multipart([
      { name: 'file', filename: 'cut.bin', content: randomBytes(512 * 1024) },
    ]);
    const req = request(`${app.url}/documents/api/v1/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${caller().token}`,
        'content-type': contentType,
        'content-length': String(body.length),
      },
    });
    const closed = new Promise<void>((done) => {
      req.on('error', () => done());
      req.on('close', () => done());
    });
    req.write(body.subarray(0, 200 * 1024));
    // Cut once the server is streaming the file to its temporary file.
    expect(
      await eventually(
        async () => filesUnder(app.tempDir),
        (f) => f.length > 0,
      ),
    ).toHaveLength(1);
    req.destroy();
    await closed;
    // The server removes that file when it sees the client gone: it is done with the request.
    expect(
      await eventually(
        async () => filesUnder(app.tempDir),
        (f) => f.length === 0,
      ),
    ).toEqual([]);
    expect(storedFiles(app)).toHaveLength(before.stored);
    expect(await rows(app)).toBe(before.rows);
    // And the app still serves.
    expect((await upload(caller(), 'still fine', { base: app.url })).status).toBe(201);
  });
});

/**
 * A transfer made again (at most five times in all) when its connection was cut before any answer
 * (`fetch failed`, write EPIPE): on a loaded machine the app may refuse a transfer before reading
 * its body (a 503 when no database connection came within its bound) and close the connection
 * while the client still writes (two CI runs at load 21-23 failed on such a cut). What this file
 * measures is the memory a transfer holds, which a cut attempt does not change; every attempt is
 * logged, and the next waits until the app reports itself ready.
 */
async function underLoad<T>(what: string, base: string, transfer: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transfer();
    } catch (error) {
      // By name: fetch's TypeError is made in Node's own realm, not in Jest's sandbox, so
      // `instanceof TypeError` (or `Error`) is false for it here and no cut was ever made again.
      const cut = error as { name?: unknown; cause?: unknown } | null;
      if (attempt === 5 || cut?.name !== 'TypeError') throw error;
      process.stderr.write(`${what} cut (${String(cut.cause ?? error)}); made again\n`);
      const ready = async () => (await fetch(`${base}/documents/health/ready`)).status;
      expect(await eventually(ready, (status) => status === 200, 30_000)).toBe(200);
    }
  }
}

const uploadedUnderLoad = (writer: Caller, content: Buffer, base: string) =>
  underLoad(`upload of ${content.length} bytes`, base, () => uploaded(writer, content, { base }));
const downloadedUnderLoad = (writer: Caller, id: string, base: string) =>
  underLoad(`download of ${id}`, base, () => download(base, id, writer.token));

describe('memory', () => {
  let app: OwnDocuments;

  beforeAll(async () => {
    app = await startDocuments({ UPLOAD_LIMIT: '50mb' });
  }, BOOT_MS);
  afterAll(async () => {
    await app?.stop();
  });

  it('streams 20 MB and 40 MB uploads and downloads: resident memory grows by less than 16 MB over idle', async () => {
    const writer = caller();
    // The app fetches acl's signing keys at its first authenticated request. On a loaded machine
    // that fetch can outlast its 2 s bound: the app then answers 503 before reading the body and
    // closes the connection after its bounded linger, while the client is still writing 20 MB
    // (which the client sees as `fetch failed`, write EPIPE). Memory is what is measured here, so
    // the keys are in before the first large upload.
    // Cut attempts (`fetch failed`, write EPIPE: the 503 came first) are tried again too.
    const small = await eventually(
      async () => (await upload(writer, 'keys in', { base: app.url })).status,
      (status) => status === 201,
      { timeoutMs: 60_000, orThrow: 'a small upload stored' },
    );
    expect(small).toBe(201);
    // The first large transfer leaves the process at a plateau about 25 MB higher, whatever the
    // size: V8 frees the socket's and the file's chunk buffers (external memory) only at its next
    // collection, which it triggers after tens of MB of them. So the warm-up is one such transfer
    // (20 MB, twice), then idle is read; a server that held a file in memory would still grow by the
    // file's size, the 40 MB one by more than twice the bound.
    for (let i = 0; i < 2; i++) {
      const warm = await uploadedUnderLoad(writer, randomBytes(20 * 1024 * 1024), app.url);
      await downloadedUnderLoad(writer, warm.id, app.url);
    }

    // The plateau the warm-up reached: a collection between transfers may shrink the process
    // below it, and growing back to it is not what a transfer holds.
    const plateau = await steadyRss(app);
    for (const mb of [20, 40]) {
      const idle = Math.max(await steadyRss(app), plateau);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, app.rss())), 10);
      try {
        const content = randomBytes(mb * 1024 * 1024);
        const doc = await uploadedUnderLoad(writer, content, app.url);
        expect(doc.size).toBe(content.length);
        expect(doc.sha256).toBe(sha256(content));
        const got = await downloadedUnderLoad(writer, doc.id, app.url);
        expect(sha256(got.bytes)).toBe(sha256(content));
      } finally {
        clearInterval(sampler);
      }
      process.stderr.write(
        `documents RSS with ${mb} MB: idle ${(idle / 2 ** 20).toFixed(1)} MiB, peak ${(peak / 2 ** 20).toFixed(1)} MiB\n`,
      );
      expect(peak - idle).toBeLessThan(16 * 1024 * 1024);
    }
    // 180 MB through the app (the warm-up included): on a loaded 2-core CI machine this took over
    // 30 s, and a cut attempt is sent again.
  }, 240_000);
});

describe('sweeper', () => {
  let app: OwnDocuments;

  beforeAll(async () => {
    app = await startDocuments({ DOCUMENTS_SWEEP_INTERVAL: '300ms', DOCUMENTS_SWEEP_GRACE: '60s' });
  }, BOOT_MS);
  afterAll(async () => {
    await app?.stop();
  });

  it('removes stored files without a live record once older than the grace period, and keeps the rest', async () => {
    const writer = caller();
    const live = await uploaded(writer, 'keep me', { base: app.url });
    const old = new Date(Date.now() - 120_000);
    const place = (key: string, age: Date) => {
      const dir = join(app.storageDir, key.slice(0, 2));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, key), 'orphan');
      utimesSync(join(dir, key), age, age);
      return join(key.slice(0, 2), key);
    };
    // An upload that crashed before its commit, an unfinished copy, and one still committing.
    const orphan = place(randomUUID(), old);
    const partial = place(`${randomUUID()}.part-0a1b2c3d`, old);
    const fresh = place(randomUUID(), new Date());
    // A deleted record whose file removal after commit never happened.
    // Aged before it is marked deleted: from the mark on, a sweeper pass may remove it at once.
    const deleted = await uploaded(writer, 'deleted', { base: app.url });
    const deletedPath = join(deleted.id.slice(0, 2), deleted.id);
    utimesSync(join(app.storageDir, deletedPath), old, old);
    await db(app.databaseUrl, `UPDATE documents SET deleted_at = now(), deleted_by = $2 WHERE id = $1`, [
      deleted.id,
      writer.id,
    ]);
    const livePath = join(live.id.slice(0, 2), live.id);
    utimesSync(join(app.storageDir, livePath), old, old);

    const left = await eventually(
      async () => filesUnder(app.storageDir).sort(),
      (files) => !files.includes(orphan) && !files.includes(partial) && !files.includes(deletedPath),
      10_000,
    );
    expect(left).toEqual(['.owner', fresh, livePath].sort());
    // The sweeper records the removal just after the file goes.
    const [row] = await eventually(
      () => db(app.databaseUrl, `SELECT file_removed_at FROM documents WHERE id = $1`, [deleted.id]),
      (rows) => rows[0]?.file_removed_at !== null,
      5_000,
    );
    expect(row.file_removed_at).not.toBeNull();
    expect((await download(app.url, live.id, writer.token)).bytes.toString()).toBe('keep me');
  });
});

describe('sweeper in a storage another installation owns', () => {
  let app: OwnDocuments;

  beforeAll(async () => {
    app = await startDocuments({ DOCUMENTS_SWEEP_INTERVAL: '300ms', DOCUMENTS_SWEEP_GRACE: '1s' });
  }, BOOT_MS);
  afterAll(async () => {
    await app?.stop();
  });

  it('leaves files without a record alone there, yet still removes the files of its own deleted records', async () => {
    // Say tests and `npm start` both left STORAGE_DIR at ./.data/documents: the directory was
    // claimed by the other one first.
    mkdirSync(app.storageDir, { recursive: true });
    writeFileSync(join(app.storageDir, '.owner'), `${randomUUID()}\n`);
    const writer = caller();
    const theirs = randomUUID();
    const old = new Date(Date.now() - 120_000);
    mkdirSync(join(app.storageDir, theirs.slice(0, 2)), { recursive: true });
    writeFileSync(join(app.storageDir, theirs.slice(0, 2), theirs), 'their file');
    utimesSync(join(app.storageDir, theirs.slice(0, 2), theirs), old, old);
    const mine = await uploaded(writer, 'mine', { base: app.url });
    await db(app.databaseUrl, `UPDATE documents SET deleted_at = now(), deleted_by = $2 WHERE id = $1`, [
      mine.id,
      writer.id,
    ]);
    const left = await eventually(
      async () => filesUnder(app.storageDir),
      (files) => !files.includes(join(mine.id.slice(0, 2), mine.id)),
      10_000,
    );
    expect(left.sort()).toEqual(['.owner', join(theirs.slice(0, 2), theirs)].sort());
    // A later pass, which removes another deleted record's file, has also left theirs alone.
    const marker = await uploaded(writer, 'marker', { base: app.url });
    await db(app.databaseUrl, `UPDATE documents SET deleted_at = now(), deleted_by = $2 WHERE id = $1`, [
      marker.id,
      writer.id,
    ]);
    const [swept] = await eventually(
      () => db(app.databaseUrl, `SELECT file_removed_at FROM documents WHERE id = $1`, [marker.id]),
      (found) => found[0]?.file_removed_at !== null,
      10_000,
    );
    expect(swept.file_removed_at).not.toBeNull();
    expect(filesUnder(app.storageDir).sort()).toEqual(['.owner', join(theirs.slice(0, 2), theirs)].sort());
  });
});

describe('S3 driver, two replicas', () => {
  let s3: S3Server;
  let a: OwnDocuments;
  let b: OwnDocuments;

  beforeAll(async () => {
    s3 = await startS3Server('documents-e2e');
    const env = {
      DOCUMENTS_STORAGE: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: 'documents/',
    };
    a = await startDocuments(env);
    // The second replica shares the first one's database and bucket.
    b = await startDocuments({ ...env, DATABASE_URL: a.databaseUrl });
  }, 2 * BOOT_MS);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await s3?.stop();
  });

  it('uploads on one replica and serves, ranges and deletes on the other; nothing lands on local disk', async () => {
    const writer = caller();
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const doc = await uploaded(writer, content, { base: a.url, filename: 'shared.bin' });
    const whole = await download(b.url, doc.id, writer.token);
    expect(whole.status).toBe(200);
    expect(sha256(whole.bytes)).toBe(doc.sha256);
    const part = await download(b.url, doc.id, writer.token, { range: 'bytes=0-0' });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(content.subarray(0, 1))).toBe(true);
    const tail = await download(b.url, doc.id, writer.token, { range: 'bytes=-100' });
    expect(tail.bytes.equals(content.subarray(content.length - 100))).toBe(true);
    expect(filesUnder(a.storageDir)).toEqual([]);

    const removed = await fetch(`${b.url}/documents/api/v1/documents/${doc.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${writer.token}` },
    });
    expect(removed.status).toBe(204);
    expect((await download(a.url, doc.id, writer.token)).status).toBe(404);
    const [row] = await db(a.databaseUrl, `SELECT file_removed_at FROM documents WHERE id = $1`, [doc.id]);
    expect(row.file_removed_at).not.toBeNull();
  });

  it('stores an empty file in the bucket', async () => {
    const writer = caller();
    const doc = await uploaded(writer, Buffer.alloc(0), { base: b.url });
    const got = await download(a.url, doc.id, writer.token);
    expect(got.status).toBe(200);
    expect(got.bytes).toHaveLength(0);
  });
});
