/**
 * Resumable uploads on documents processes of the test's own, so their storage and database can
 * be watched: termination and expiry leave no bytes and no row, a replica killed mid-upload
 * leaves the hash state for another to finish with the right sha256, and on S3 chunks below the
 * 5 MiB part minimum wait in a pending object until they make a part.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  BOOT_MS,
  caller,
  db,
  download,
  documents,
  eventually,
  filesUnder,
  startDocuments,
  type Caller,
  type OwnDocuments,
} from './support';
import { startS3Server, type S3Server } from './s3-server';

const TUS = { 'tus-resumable': '1.0.0' };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const uploadFiles = (app: OwnDocuments) => filesUnder(app.storageDir).filter((f) => f !== '.owner');
const uploadRows = async (app: OwnDocuments) => (await db(app.databaseUrl, 'SELECT id FROM uploads')).length;

async function create(app: OwnDocuments, who: Caller, length: number): Promise<string> {
  const res = await documents(
    '/api/v1/uploads',
    { method: 'POST', token: who.token, headers: { ...TUS, 'upload-length': String(length) } },
    app.url,
  );
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${res.text}`);
  return res.headers.get('location')!.split('/').pop()!;
}

async function patch(app: OwnDocuments, who: Caller, id: string, offset: number, bytes: Buffer) {
  const res = await documents(
    `/api/v1/uploads/${id}`,
    {
      method: 'PATCH',
      token: who.token,
      raw: bytes,
      headers: { ...TUS, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
    },
    app.url,
  );
  return res.status;
}

describe('resumable uploads on the filesystem driver', () => {
  let a: OwnDocuments;
  let b: OwnDocuments;

  beforeAll(async () => {
    a = await startDocuments({ DOCUMENTS_SWEEP_INTERVAL: '300ms' });
    b = await startDocuments({
      DOCUMENTS_SWEEP_INTERVAL: '300ms',
      DATABASE_URL: a.databaseUrl,
      STORAGE_DIR: a.storageDir,
    });
  }, 2 * BOOT_MS);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('removes the bytes and the row on termination', async () => {
    const who = caller();
    const id = await create(a, who, 1000);
    expect(await patch(a, who, id, 0, randomBytes(400))).toBe(204);
    expect(uploadFiles(a)).toEqual([`${id.slice(0, 2)}/${id}.tus`]);
    const res = await documents(
      `/api/v1/uploads/${id}`,
      { method: 'DELETE', token: who.token, headers: TUS },
      a.url,
    );
    expect(res.status).toBe(204);
    expect(uploadFiles(a)).toEqual([]);
    expect(await uploadRows(a)).toBe(0);
  });

  it('sweeps an upload past Upload-Expires: bytes and row gone, HEAD 404', async () => {
    const who = caller();
    const id = await create(a, who, 1000);
    expect(await patch(a, who, id, 0, randomBytes(400))).toBe(204);
    expect(uploadFiles(a)).toHaveLength(1);
    await db(a.databaseUrl, `UPDATE uploads SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      id,
    ]);
    // The sweep removes the bytes before the row, so the row is read first: once it is gone, no
    // file may be left (reading the files first could catch the sweep between the two).
    const left = await eventually(
      async () => {
        const rows = await uploadRows(a);
        return { files: uploadFiles(a), rows };
      },
      (state) => state.rows === 0,
      15_000,
    );
    expect(left).toEqual({ files: [], rows: 0 });
    const head = await documents(
      `/api/v1/uploads/${id}`,
      { method: 'HEAD', token: who.token, headers: TUS },
      a.url,
    );
    expect(head.status).toBe(404);
  });

  it('finishes on another replica, with the right sha256, after the first was killed mid-upload', async () => {
    const who = caller();
    const file = randomBytes(3_000_000);
    const id = await create(a, who, file.length);
    expect(await patch(a, who, id, 0, file.subarray(0, 1_000_000))).toBe(204);
    expect(await patch(b, who, id, 1_000_000, file.subarray(1_000_000, 2_000_000))).toBe(204);
    a.child.kill('SIGKILL');
    expect(await patch(b, who, id, 2_000_000, file.subarray(2_000_000))).toBe(204);
    const record = await documents(`/api/v1/documents/${id}`, { token: who.token }, b.url);
    expect(record.body).toEqual(expect.objectContaining({ id, size: file.length, sha256: sha256(file) }));
    expect((await download(b.url, id, who.token)).bytes.equals(file)).toBe(true);
    // b shares a's storage directory.
    expect(uploadFiles(a)).toEqual([`${id.slice(0, 2)}/${id}`]);
  });
});

describe('resumable uploads on the S3 driver', () => {
  let s3: S3Server;
  let app: OwnDocuments;
  let client: S3Client;
  const keys = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? [])
      .map((o) => o.Key!)
      .filter((k) => k !== '.owner')
      .sort();

  beforeAll(async () => {
    s3 = await startS3Server('documents-tus-parts');
    app = await startDocuments({
      DOCUMENTS_STORAGE: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  }, BOOT_MS);
  afterAll(async () => {
    client?.destroy();
    await app?.stop();
    await s3?.stop();
  });

  it('holds chunks below 5 MiB in a pending object until they make a part, then completes', async () => {
    const who = caller();
    const MiB = 1024 * 1024;
    const file = randomBytes(13 * MiB + 123);
    const id = await create(app, who, file.length);
    expect(await patch(app, who, id, 0, file.subarray(0, 2 * MiB))).toBe(204);
    expect(await keys()).toEqual([`${id}.pending.1.${2 * MiB}`]);
    expect(await patch(app, who, id, 2 * MiB, file.subarray(2 * MiB, 4 * MiB))).toBe(204);
    expect(await keys()).toEqual([`${id}.pending.1.${4 * MiB}`]);
    // 4 + 3 MiB: part 1 (7 MiB) goes up, nothing is pending.
    expect(await patch(app, who, id, 4 * MiB, file.subarray(4 * MiB, 7 * MiB))).toBe(204);
    expect(await keys()).toEqual([]);
    expect(await patch(app, who, id, 7 * MiB, file.subarray(7 * MiB, 8 * MiB))).toBe(204);
    expect(await keys()).toEqual([`${id}.pending.2.${MiB}`]);
    expect(await patch(app, who, id, 8 * MiB, file.subarray(8 * MiB))).toBe(204);
    expect(await keys()).toEqual([id]);
    const record = await documents(`/api/v1/documents/${id}`, { token: who.token }, app.url);
    expect(record.body).toEqual(expect.objectContaining({ size: file.length, sha256: sha256(file) }));
    expect((await download(app.url, id, who.token)).bytes.equals(file)).toBe(true);
  });

  it('removes the pending object on termination', async () => {
    const who = caller();
    const id = await create(app, who, 10 * 1024 * 1024);
    expect(await patch(app, who, id, 0, randomBytes(1000))).toBe(204);
    expect((await keys()).filter((k) => k.startsWith(id))).toEqual([`${id}.pending.1.1000`]);
    const res = await documents(
      `/api/v1/uploads/${id}`,
      { method: 'DELETE', token: who.token, headers: TUS },
      app.url,
    );
    expect(res.status).toBe(204);
    expect((await keys()).filter((k) => k.startsWith(id))).toEqual([]);
  });
});
