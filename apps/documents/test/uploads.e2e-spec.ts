/**
 * Resumable uploads (tus 1.0) through the gateway, request by request as `curl` sends them: the
 * protocol's answers and headers, each refusal with its status and body, and a completed upload
 * that is a document like any other. The large uploads with the reference client, cuts and
 * replicas are in uploads-large.e2e-spec.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { caller, db, documents, download, eventually, system, type Caller } from './support';

const sha = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest();
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };
const CHUNK = 'application/offset+octet-stream';

async function create(who: Caller, length: number, headers: Record<string, string> = {}) {
  return documents('/api/v1/uploads', {
    method: 'POST',
    token: who.token,
    headers: {
      ...TUS,
      'upload-length': String(length),
      'upload-metadata': `filename ${b64('spot.mp4')},content_type ${b64('video/mp4')}`,
      ...headers,
    },
  });
}

/** Creates an upload and answers its path under the gateway (from the Location header). */
async function created(who: Caller, length: number): Promise<string> {
  const res = await create(who, length);
  expect(res.status).toBe(201);
  return new URL(res.headers.get('location')!).pathname.replace(/^\/documents/, '');
}

function patch(
  who: Caller,
  path: string,
  offset: number,
  bytes: Buffer,
  headers: Record<string, string> = {},
) {
  return documents(path, {
    method: 'PATCH',
    token: who.token,
    raw: bytes,
    headers: { ...TUS, 'content-type': CHUNK, 'upload-offset': String(offset), ...headers },
  });
}

const head = (who: Caller, path: string) =>
  documents(path, { method: 'HEAD', token: who.token, headers: TUS });

describe('resumable uploads (tus 1.0) through the gateway', () => {
  it('tells what it supports on OPTIONS', async () => {
    const res = await documents('/api/v1/uploads', { method: 'OPTIONS', token: caller().token });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')).toBe(
      'creation,creation-with-upload,termination,expiration,checksum',
    );
    expect(res.headers.get('tus-max-size')).toBe(String(10 * 1024 ** 3));
    expect(res.headers.get('tus-checksum-algorithm')).toBe('sha1,sha256');
  });

  it('creates, takes chunks with checksums, and ends in a document with the upload id, size and sha256', async () => {
    const who = caller();
    const file = randomBytes(300_000);
    const res = await create(who, file.length);
    expect(res.status).toBe(201);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${system().gatewayUrl}/documents/api/v1/uploads/[0-9a-f-]{36}$`));
    const expires = Date.parse(res.headers.get('upload-expires')!);
    expect(expires - Date.now()).toBeGreaterThan(23 * 3600_000);
    const path = new URL(location).pathname.replace(/^\/documents/, '');
    const id = path.split('/').pop()!;

    const fresh = await head(who, path);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('upload-offset')).toBe('0');
    expect(fresh.headers.get('upload-length')).toBe(String(file.length));
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    expect(fresh.headers.get('upload-metadata')).toBe(
      `filename ${b64('spot.mp4')},content_type ${b64('video/mp4')}`,
    );

    const first = file.subarray(0, 100_000);
    const one = await patch(who, path, 0, first, {
      'upload-checksum': `sha1 ${sha('sha1', first).toString('base64')}`,
    });
    expect(one.status).toBe(204);
    expect(one.headers.get('upload-offset')).toBe('100000');
    expect((await head(who, path)).headers.get('upload-offset')).toBe('100000');

    const rest = file.subarray(100_000);
    const two = await patch(who, path, 100_000, rest, {
      'upload-checksum': `sha256 ${sha('sha256', rest).toString('base64')}`,
    });
    expect(two.status).toBe(204);
    expect(two.headers.get('upload-offset')).toBe(String(file.length));

    const record = await documents(`/api/v1/documents/${id}`, { token: who.token });
    expect(record.status).toBe(200);
    expect(record.body).toEqual({
      id,
      filename: 'spot.mp4',
      content_type: 'video/mp4',
      size: file.length,
      sha256: createHash('sha256').update(file).digest('hex'),
      uploaded_by: who.id,
      created_at: expect.any(String),
    });
    const content = await download(system().gatewayUrl, id, who.token);
    expect(content.status).toBe(200);
    expect(content.bytes.equals(file)).toBe(true);
    // A client that lost the last answer sees the upload done.
    const done = await head(who, path);
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe(String(file.length));
  });

  it('takes the first chunk with the creation (creation-with-upload)', async () => {
    const who = caller();
    const file = randomBytes(5000);
    const res = await documents('/api/v1/uploads', {
      method: 'POST',
      token: who.token,
      raw: file.subarray(0, 2000),
      headers: { ...TUS, 'upload-length': '5000', 'content-type': CHUNK },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('2000');
    const path = new URL(res.headers.get('location')!).pathname.replace(/^\/documents/, '');
    expect((await patch(who, path, 2000, file.subarray(2000))).status).toBe(204);
    const id = path.split('/').pop()!;
    const record = await documents(`/api/v1/documents/${id}`, { token: who.token });
    expect(record.body.filename).toBe('file');
    expect(record.body.content_type).toBe('application/octet-stream');
    expect((await download(system().gatewayUrl, id, who.token)).bytes.equals(file)).toBe(true);
  });

  it('answers a repeated creation with the same Idempotency-Key with the same upload', async () => {
    const who = caller();
    const key = randomBytes(8).toString('hex');
    const first = await create(who, 100, { 'idempotency-key': key });
    const again = await create(who, 100, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('upload-expires')).toBe(first.headers.get('upload-expires'));
  });

  it('answers 409 offset_mismatch on a wrong offset, and the offset stays', async () => {
    const who = caller();
    const path = await created(who, 100);
    const res = await patch(who, path, 10, randomBytes(10));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: "Upload-Offset 10 is not the upload's offset (0).",
      code: 'offset_mismatch',
    });
    expect((await head(who, path)).headers.get('upload-offset')).toBe('0');
  });

  it('answers 409 upload_in_progress to a chunk while another is still arriving, then takes the first', async () => {
    const who = caller();
    const path = await created(who, 2000);
    const first = request(`${system().gatewayUrl}/documents${path}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        authorization: `Bearer ${who.token}`,
        'content-type': CHUNK,
        'content-length': '2000',
        'upload-offset': '0',
      },
    });
    const answered = once(first, 'response') as Promise<[IncomingMessage]>;
    first.write(randomBytes(1000));
    // The first holds the upload once its lease is in the row.
    const id = path.split('/').pop()!;
    const held = await eventually(
      () => db(system().databases.documents, 'SELECT busy_token FROM uploads WHERE id = $1', [id]),
      (rows) => rows[0]?.busy_token !== null,
      10_000,
    );
    expect(held[0].busy_token).not.toBeNull();
    const busy = await patch(who, path, 0, Buffer.alloc(0));
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({
      detail: 'The upload is receiving another chunk; retry when it ends (HEAD tells the offset).',
      code: 'upload_in_progress',
    });
    first.end(randomBytes(1000));
    const [res] = await answered;
    res.resume();
    expect(res.statusCode).toBe(204);
    expect(res.headers['upload-offset']).toBe('2000');
  });

  it('answers 460 checksum_mismatch on a bad checksum and discards the chunk', async () => {
    const who = caller();
    const path = await created(who, 100);
    const res = await patch(who, path, 0, randomBytes(50), {
      'upload-checksum': `sha256 ${sha('sha256', Buffer.from('other')).toString('base64')}`,
    });
    expect(res.status).toBe(460);
    expect(res.body).toEqual({
      detail: "Upload-Checksum does not match the chunk's sha256; the chunk was discarded.",
      code: 'checksum_mismatch',
    });
    expect((await head(who, path)).headers.get('upload-offset')).toBe('0');
  });

  it('answers 400 for an unsupported checksum algorithm', async () => {
    const who = caller();
    const path = await created(who, 100);
    const res = await patch(who, path, 0, randomBytes(10), { 'upload-checksum': 'md5 AAAA' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });

  it('answers 400 for a chunk past Upload-Length and keeps nothing of it', async () => {
    const who = caller();
    const path = await created(who, 100);
    const res = await patch(who, path, 0, randomBytes(101));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: 'The chunk passes Upload-Length: 100 bytes are left.',
      code: 'bad_request',
    });
    expect((await head(who, path)).headers.get('upload-offset')).toBe('0');
  });

  it('answers 413 over Tus-Max-Size, 400 for Upload-Defer-Length or no Upload-Length', async () => {
    const who = caller();
    const over = await create(who, 10 * 1024 ** 3 + 1);
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      detail: `Upload-Length ${10 * 1024 ** 3 + 1} exceeds Tus-Max-Size (${10 * 1024 ** 3} bytes).`,
      code: 'payload_too_large',
    });
    const deferred = await documents('/api/v1/uploads', {
      method: 'POST',
      token: who.token,
      headers: { ...TUS, 'upload-defer-length': '1' },
    });
    expect(deferred.status).toBe(400);
    expect(deferred.body).toEqual({
      detail: 'Upload-Defer-Length is not supported: send Upload-Length.',
      code: 'bad_request',
    });
    const none = await documents('/api/v1/uploads', { method: 'POST', token: who.token, headers: TUS });
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe('Upload-Length must be a non-negative integer.');
  });

  it('answers 412 with Tus-Version for another protocol version', async () => {
    const who = caller();
    const res = await create(who, 10, { 'tus-resumable': '0.2.2' });
    expect(res.status).toBe(412);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.body).toEqual({
      detail: 'Tus-Resumable 0.2.2 is not supported; this server speaks 1.0.0.',
      code: 'precondition_failed',
    });
  });

  it('answers 415 for a chunk of another media type', async () => {
    const who = caller();
    const path = await created(who, 10);
    const res = await patch(who, path, 0, Buffer.from('0123456789'), {
      'content-type': 'application/octet-stream',
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('keeps an upload its creator’s alone: 404 to anyone else, whatever the method', async () => {
    const owner = caller();
    const other = caller();
    const path = await created(owner, 10);
    expect((await head(other, path)).status).toBe(404);
    const res = await patch(other, path, 0, randomBytes(10));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await documents(path, { method: 'DELETE', token: other.token, headers: TUS })).status).toBe(404);
    expect((await head(owner, path)).status).toBe(200);
  });

  it('terminates with DELETE: 204, then 404', async () => {
    const who = caller();
    const path = await created(who, 100);
    expect((await patch(who, path, 0, randomBytes(40))).status).toBe(204);
    const res = await documents(path, { method: 'DELETE', token: who.token, headers: TUS });
    expect(res.status).toBe(204);
    expect((await head(who, path)).status).toBe(404);
    expect((await patch(who, path, 40, randomBytes(10))).status).toBe(404);
  });

  it('makes an empty file a document at once', async () => {
    const who = caller();
    const res = await create(who, 0);
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('0');
    const id = res.headers.get('location')!.split('/').pop()!;
    const record = await documents(`/api/v1/documents/${id}`, { token: who.token });
    expect(record.body.size).toBe(0);
    expect(record.body.sha256).toBe(createHash('sha256').digest('hex'));
  });

  it('refuses a chunk body on routes that do not stream one (415)', async () => {
    const res = await documents('/api/v1/documents', {
      method: 'POST',
      token: caller().token,
      raw: Buffer.from('x'),
      headers: { 'content-type': CHUNK },
    });
    expect(res.status).toBe(415);
  });
});
