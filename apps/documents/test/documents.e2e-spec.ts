/**
 * documents over HTTP against the stack (docs/api/contract.md §1, §4.11): upload, the record, the caller's
 * list, the content with its validators and ranges, and deletion.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { caller, db, documents, download, multipart, system, upload, uploaded, type Caller } from './support';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Every byte value, so a text-mode or charset mistake anywhere shows. */
const binary = (size: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 8)) % 256));

const direct = () => system().urls.documents;
const gateway = () => system().gatewayUrl;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /documents/api/v1/documents', () => {
  it('stores a binary file and answers 201 with its record; it comes back byte for byte through the gateway and directly', async () => {
    const writer = caller();
    const content = binary(1_048_576 + 3);
    const res = await upload(writer, content, { filename: 'scan 2026.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      filename: 'scan 2026.pdf',
      content_type: 'application/pdf',
      size: content.length,
      sha256: sha256(content),
      uploaded_by: writer.id,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    for (const base of [gateway(), direct()]) {
      const got = await download(base, res.body.id, writer.token);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(content)).toBe(true);
      expect(got.headers.get('content-type')).toBe('application/pdf');
      expect(got.headers.get('content-length')).toBe(String(content.length));
      expect(got.headers.get('etag')).toBe(`"${sha256(content)}"`);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('accept-ranges')).toBe('bytes');
      expect(got.headers.get('content-disposition')).toBe(
        `attachment; filename="scan 2026.pdf"; filename*=UTF-8''scan%202026.pdf`,
      );
    }
  });

  it('stores an empty file (size 0) and serves it', async () => {
    const writer = caller();
    const doc = await uploaded(writer, Buffer.alloc(0), { filename: 'empty.txt', contentType: 'text/plain' });
    expect(doc.size).toBe(0);
    expect(doc.sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const got = await download(gateway(), doc.id, writer.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-length')).toBe('0');
    expect(got.bytes).toHaveLength(0);
  });

  it('keeps only the base name, without control characters, cut to 255 characters (docs/api/contract.md §4.11)', async () => {
    const writer = caller();
    expect((await uploaded(writer, 'a', { filename: '../../x' })).filename).toBe('x');
    expect((await uploaded(writer, 'a', { filename: '..\\..\\windows\\win.ini' })).filename).toBe('win.ini');
    const { body, contentType } = multipart([
      { name: 'file', filename: 'x.txt', filenameStar: 'nul%00in%01side%0D%0A.txt', content: 'a' },
    ]);
    const nul = await documents('/api/v1/documents', {
      token: writer.token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(nul.status).toBe(201);
    expect(nul.body.filename).toBe('nulinside.txt');
    const long = await uploaded(writer, 'a', { filename: `${'n'.repeat(996)}.txt` });
    expect(long.filename).toBe('n'.repeat(255));
    const exact = await uploaded(writer, 'a', { filename: 'e'.repeat(255) });
    expect(exact.filename).toBe('e'.repeat(255));
    const unicode = await uploaded(writer, 'a', { filename: 'Übersicht_✓.txt' });
    expect(unicode.filename).toBe('Übersicht_✓.txt');
    const got = await download(gateway(), unicode.id, writer.token);
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="_bersicht__.txt"; filename*=UTF-8''%C3%9Cbersicht_%E2%9C%93.txt`,
    );
  });

  it('keeps the declared content type, and application/octet-stream when none is declared', async () => {
    const writer = caller();
    expect((await uploaded(writer, 'x', { contentType: 'application/pdf' })).content_type).toBe(
      'application/pdf',
    );
    expect((await uploaded(writer, 'x', { contentType: 'image/svg+xml' })).content_type).toBe(
      'image/svg+xml',
    );
    const { body, contentType } = multipart([{ name: 'file', filename: 'plain', content: 'x' }]);
    const res = await documents('/api/v1/documents', {
      token: writer.token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(201);
    expect(['application/octet-stream', 'text/plain']).toContain(res.body.content_type);
  });

  it('answers 422 at ["body","file"] without a file part', async () => {
    const { body, contentType } = multipart([]);
    const res = await documents('/api/v1/documents', {
      token: caller().token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(
      expect.objectContaining({ loc: ['body', 'file'], type: 'missing' }),
    );
  });

  it('answers 422 at ["body","file"] for two files, and stores neither', async () => {
    const writer = caller();
    const { body, contentType } = multipart([
      { name: 'file', filename: 'a.txt', content: 'a' },
      { name: 'file', filename: 'b.txt', content: 'b' },
    ]);
    const res = await documents('/api/v1/documents', {
      token: writer.token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'file'] }));
    const mine = await documents('/api/v1/documents', { token: writer.token });
    expect(mine.body.results).toEqual([]);
  });

  it('refuses other form fields and files in other fields with 422 extra_forbidden, storing nothing', async () => {
    const writer = caller();
    const { body, contentType } = multipart([
      { name: 'file', filename: 'a.txt', content: 'a' },
      { name: 'note', content: 'hello' },
      { name: 'attachment', filename: 'b.txt', content: 'b' },
    ]);
    const res = await documents('/api/v1/documents', {
      token: writer.token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'note'], type: 'extra_forbidden' }),
        expect.objectContaining({ loc: ['body', 'attachment'], type: 'extra_forbidden' }),
      ]),
    );
    expect((await documents('/api/v1/documents', { token: writer.token })).body.results).toEqual([]);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const token = caller().token;
    const json = await documents('/api/v1/documents', { token, json: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('unsupported_media_type');
    const form = await documents('/api/v1/documents', { token, form: { file: 'x' } });
    expect(form.status).toBe(415);
    const raw = await documents('/api/v1/documents', {
      token,
      raw: 'bytes',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(raw.status).toBe(415);
  });

  it('answers 415 before 403 for a JSON upload by a caller without documents:write (docs/api/contract.md §1 order)', async () => {
    const res = await documents('/api/v1/documents', { token: caller([]).token, json: { file: 'x' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('needs documents:write (403), and a token (401) first', async () => {
    const reader = caller([]);
    const forbidden = await upload(reader, 'x');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    const anonymous = await upload({ id: '', token: '' }, 'x');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect((await upload(caller(['*']), 'x')).status).toBe(201);
  });
});

describe('GET /documents/api/v1/documents/{document_id}', () => {
  it('lets any valid token read the record (docs/api/contract.md §1)', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'hello');
    const stranger = caller([]);
    const res = await documents(`/api/v1/documents/${doc.id}`, { token: stranger.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(doc);
    expect((await download(gateway(), doc.id, stranger.token)).bytes.toString()).toBe('hello');
    expect((await documents(`/api/v1/documents/${doc.id}`)).status).toBe(401);
  });

  it('answers 404 for an unknown id and 422 at ["path","document_id"] for a malformed one', async () => {
    const token = caller([]).token;
    const unknown = await documents(`/api/v1/documents/${randomUUID()}`, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    for (const path of ['/api/v1/documents/nope', '/api/v1/documents/nope/content']) {
      const res = await documents(path, { token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['path', 'document_id'], type: 'uuid_parsing' }),
      ]);
    }
    expect((await download(gateway(), randomUUID(), token)).status).toBe(404);
  });
});

describe('GET /documents/api/v1/documents/{document_id}/content: validators and ranges', () => {
  let writer: Caller;
  let doc: Record<string, any>;
  const content = randomBytes(1000);

  beforeAll(async () => {
    writer = caller();
    doc = await uploaded(writer, content, { filename: 'r.bin' });
  });

  const get = (headers: Record<string, string>) => download(gateway(), doc.id, writer.token, headers);

  it('answers 304 without a body when If-None-Match holds the ETag, 200 otherwise', async () => {
    const etag = `"${sha256(content)}"`;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await get({ 'if-none-match': header });
      expect(res.status).toBe(304);
      expect(res.bytes).toHaveLength(0);
      expect(res.headers.get('etag')).toBe(etag);
    }
    const changed = await get({ 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.bytes.equals(content)).toBe(true);
  });

  it('answers 206 with Content-Range for one satisfiable range, up to the last byte', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=0-99', 0, 99],
      ['bytes=990-', 990, 999],
      ['bytes=-10', 990, 999],
      ['bytes=999-999', 999, 999],
      ['bytes=500-5000', 500, 999],
      ['bytes=-5000', 0, 999],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect([range, res.status]).toEqual([range, 206]);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.bytes.equals(content.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers 416 with Content-Range: bytes */size for a range past the end', async () => {
    for (const range of ['bytes=1000-', 'bytes=1000-1001', 'bytes=5000-6000', 'bytes=-0']) {
      const res = await get({ range });
      expect([range, res.status]).toEqual([range, 416]);
      expect(res.headers.get('content-range')).toBe('bytes */1000');
      expect(JSON.parse(res.bytes.toString())).toEqual({
        detail: expect.any(String),
        code: 'range_not_satisfiable',
      });
    }
  });

  it('ignores a malformed or multi-range Range and answers the whole content', async () => {
    for (const range of ['bytes=abc', 'bytes=9-1', 'bytes=0-1,5-6', 'pages=1-2', 'bytes=']) {
      const res = await get({ range });
      expect([range, res.status]).toEqual([range, 200]);
      expect(res.bytes.equals(content)).toBe(true);
    }
  });

  it('answers HEAD with the headers of a GET and no body', async () => {
    const res = await fetch(`${gateway()}/documents/api/v1/documents/${doc.id}/content`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${writer.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('etag')).toBe(`"${sha256(content)}"`);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers the whole content when If-Range names another version', async () => {
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.status).toBe(200);
    const current = await get({ range: 'bytes=0-9', 'if-range': `"${sha256(content)}"` });
    expect(current.status).toBe(206);
  });
});

describe('GET /documents/api/v1/documents (the caller’s documents)', () => {
  it('lists the caller’s live documents newest first, by cursor', async () => {
    const writer = caller();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await uploaded(writer, `doc ${i}`)).id);
    await uploaded(caller(), 'someone else');
    const first = await documents('/api/v1/documents?page_size=2', { token: writer.token });
    expect(first.status).toBe(200);
    expect(first.body.previous).toBeNull();
    const seen: string[] = first.body.results.map((d: { id: string }) => d.id);
    let next: string | null = first.body.next;
    while (next) {
      const url = new URL(next);
      const page = await documents(`${url.pathname.replace(/^\/documents/, '')}${url.search}`, {
        token: writer.token,
      });
      seen.push(...page.body.results.map((d: { id: string }) => d.id));
      next = page.body.next;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('takes uploaded_by for documents:delete holders and for oneself, else 403', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'mine');
    const other = caller(['documents:write']);
    const refused = await documents(`/api/v1/documents?uploaded_by=${writer.id}`, { token: other.token });
    expect(refused.status).toBe(403);
    const self = await documents(`/api/v1/documents?uploaded_by=${writer.id}`, { token: writer.token });
    expect(self.body.results.map((d: { id: string }) => d.id)).toEqual([doc.id]);
    const moderator = caller(['documents:delete']);
    const allowed = await documents(`/api/v1/documents?uploaded_by=${writer.id}`, { token: moderator.token });
    expect(allowed.status).toBe(200);
    expect(allowed.body.results).toEqual([doc]);
  });

  it('validates its query: uploaded_by a uuid, page_size 1..100, a cursor of its own', async () => {
    const token = caller().token;
    const cases: [string, string[]][] = [
      ['uploaded_by=nope', ['query', 'uploaded_by']],
      ['page_size=0', ['query', 'page_size']],
      ['page_size=101', ['query', 'page_size']],
      ['cursor=forged', ['query', 'cursor']],
    ];
    for (const [query, loc] of cases) {
      const res = await documents(`/api/v1/documents?${query}`, { token });
      expect([query, res.status]).toEqual([query, 422]);
      expect(res.body.detail).toContainEqual(expect.objectContaining({ loc }));
    }
    expect((await documents('/api/v1/documents?page_size=100', { token })).status).toBe(200);
    expect((await documents('/api/v1/documents?page_size=1', { token })).status).toBe(200);
  });
});

describe('DELETE /documents/api/v1/documents/{document_id}', () => {
  const stackDb = () => system().databases.documents;

  it('lets the uploader delete: 204 without a body, then 404 everywhere, the file removed and the event in the outbox', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'to delete');
    const res = await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: writer.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const etag = `"${doc.sha256}"`;
    expect((await documents(`/api/v1/documents/${doc.id}`, { token: writer.token })).status).toBe(404);
    const content = await download(gateway(), doc.id, writer.token, { 'if-none-match': etag });
    expect(content.status).toBe(404);
    const again = await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: writer.token });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    const mine = await documents('/api/v1/documents', { token: writer.token });
    expect(mine.body.results).toEqual([]);

    const [row] = await db(
      stackDb(),
      `SELECT deleted_at, deleted_by, file_removed_at FROM documents WHERE id = $1`,
      [doc.id],
    );
    expect(row.deleted_at).not.toBeNull();
    expect(row.deleted_by).toBe(writer.id);
    expect(row.file_removed_at).not.toBeNull();
    const events = await db(
      stackDb(),
      `SELECT payload FROM outbox WHERE subject = 'documents.document.deleted' AND payload->>'document_id' = $1`,
      [doc.id],
    );
    expect(events).toEqual([
      {
        payload: {
          document_id: doc.id,
          uploaded_by: writer.id,
          deleted_by: writer.id,
          deleted_at: expect.any(String),
        },
      },
    ]);
  });

  it('refuses another user without documents:delete (403) and lets a documents:delete holder delete (204)', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'guarded');
    const other = caller(['documents:write']);
    const refused = await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await documents(`/api/v1/documents/${doc.id}`, { token: other.token })).status).toBe(200);
    const moderator = caller(['documents:delete']);
    expect(
      (await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: moderator.token })).status,
    ).toBe(204);
    const [event] = await db(stackDb(), `SELECT payload FROM outbox WHERE payload->>'document_id' = $1`, [
      doc.id,
    ]);
    expect(event.payload).toMatchObject({ uploaded_by: writer.id, deleted_by: moderator.id });
  });

  it('checks in the contract order: 401, then 422 for a malformed id, then 404, then 403', async () => {
    const doc = await uploaded(caller(), 'order');
    const stranger = caller([]);
    expect((await documents(`/api/v1/documents/nope`, { method: 'DELETE' })).status).toBe(401);
    const malformed = await documents(`/api/v1/documents/nope`, { method: 'DELETE', token: stranger.token });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'document_id'], type: 'uuid_parsing' }),
    ]);
    expect(
      (await documents(`/api/v1/documents/${randomUUID()}`, { method: 'DELETE', token: stranger.token }))
        .status,
    ).toBe(404);
    expect(
      (await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: stranger.token })).status,
    ).toBe(403);
  });

  it('lets exactly one of eight concurrent deletes win; the others get 404 and one event is written', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'raced');
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: writer.token }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
    const events = await db(stackDb(), `SELECT id FROM outbox WHERE payload->>'document_id' = $1`, [doc.id]);
    expect(events).toHaveLength(1);
  });
});
