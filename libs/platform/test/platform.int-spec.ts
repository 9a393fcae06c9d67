/**
 * The platform's shared behaviour, proven on a small fixture app booted for real against the
 * run's PostgreSQL and NATS: docs/api/contract.md §1 (401/403, order of checks), §2 (422 shapes, 413, 415,
 * 500), §3 (forms, pagination) and §5 (NATS failures are 503).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  call,
  eventually,
  generateTestKeys,
  mintToken,
  queryDatabase,
  testEnv,
  type TestKeys,
} from '@media/testing';
import { bootFixture, type BootedFixture } from './fixture/boot';

let fixture: BootedFixture;
let base: string;
let keys: TestKeys;
let token: string;
let nats: NatsConnection;

beforeAll(async () => {
  fixture = await bootFixture({ BODY_LIMIT: '4kb', UPLOAD_LIMIT: '16kb' });
  ({ base, keys } = fixture);
  token = mintToken(keys, { permissions: ['lineup:write'] });
  nats = await connect({ servers: testEnv.natsUrl });
});

afterAll(async () => {
  await nats?.close();
  await fixture?.stop();
});

describe('authentication (docs/api/contract.md §1)', () => {
  const cases: [string, () => string, string][] = [
    ['an expired token', () => mintToken(keys, { expiresIn: -60 }), 'token_expired'],
    ['a token for another audience', () => mintToken(keys, { aud: 'someone-else' }), 'token_invalid'],
    ['a token from another issuer', () => mintToken(keys, { iss: 'evil' }), 'token_invalid'],
    ["an 'alg: none' token", () => mintToken(keys, { alg: 'none' }), 'token_invalid'],
    [
      'an HS256 token keyed with the public key',
      () => mintToken(keys, { alg: 'HS256-public' }),
      'token_invalid',
    ],
    ['a token signed with an unknown kid', () => mintToken(generateTestKeys(), {}), 'token_invalid'],
    [
      'a token with a known kid but another key',
      () => mintToken({ ...generateTestKeys(), kid: keys.kid }, {}),
      'token_invalid',
    ],
    ['a malformed token', () => 'not-a-jwt', 'token_invalid'],
  ];

  it('refuses a request without a token with 401 not_authenticated and WWW-Authenticate', async () => {
    const res = await call(base, '/api/v1/things', { json: { name: 'x' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(cases)('refuses %s with 401', async (_name, make, code) => {
    const res = await call(base, '/api/v1/things', { json: { name: 'x' }, token: make() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String), code });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 403 forbidden when the permission is missing', async () => {
    const res = await call(base, '/api/v1/things', {
      json: { name: 'ok' },
      token: mintToken(keys, { permissions: ['lineup:read'] }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'forbidden' });
  });

  it('lets the * permission grant everything', async () => {
    const res = await call(base, '/api/v1/things', {
      json: { name: 'ok' },
      token: mintToken(keys, { permissions: ['*'] }),
    });
    expect(res.status).toBe(201);
  });

  it('checks 401 before the body: a malformed body without a token is 401', async () => {
    const res = await call(base, '/api/v1/things', {
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });

  it('checks 403 before 422: an invalid body without the permission is 403', async () => {
    const res = await call(base, '/api/v1/things', { json: { name: '' }, token: mintToken(keys) });
    expect(res.status).toBe(403);
  });
});

describe('validation errors (docs/api/contract.md §2)', () => {
  it('reports every failing field at once with its loc and type', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      json: {
        name: '',
        count: 9,
        // At most 3 (a longer list is one too_long item, docs/api/contract.md §2): bad ones at their index.
        member_ids: [randomUUID(), 'nope', 'bad'],
        items: [{ label: 'a' }, {}],
        enabled: 'yes',
        day: '2023-02-29',
        amount: '1.234',
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'name'], msg: expect.any(String), type: 'string_too_short' },
        { loc: ['body', 'count'], msg: expect.any(String), type: 'less_than_equal' },
        { loc: ['body', 'member_ids', '1'], msg: expect.any(String), type: 'uuid_parsing' },
        { loc: ['body', 'member_ids', '2'], msg: expect.any(String), type: 'uuid_parsing' },
        { loc: ['body', 'items', '1', 'label'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'enabled'], msg: expect.any(String), type: 'bool_parsing' },
        { loc: ['body', 'day'], msg: expect.any(String), type: 'date_parsing' },
        { loc: ['body', 'amount'], msg: expect.any(String), type: 'decimal_parsing' },
      ]),
    );
    expect(res.body.detail).toHaveLength(8);
  });

  it('reports a missing required field as type missing', async () => {
    const res = await call(base, '/api/v1/things', { token, json: {} });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] });
  });

  it('refuses an unknown field at its own loc with extra_forbidden', async () => {
    const res = await call(base, '/api/v1/things', { token, json: { name: 'ok', colour: 'red' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'colour'], msg: expect.any(String), type: 'extra_forbidden' },
    ]);
  });

  it('refuses an array over its limit with too_long', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const res = await call(base, '/api/v1/things', { token, json: { name: 'ok', member_ids: ids } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'member_ids'], msg: expect.any(String), type: 'too_long' },
    ]);
  });

  it('answers malformed JSON with 422 json_invalid at ["body"]', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['body'], msg: expect.any(String), type: 'json_invalid' }] });
  });

  it('refuses a JSON body that is not an object', async () => {
    const res = await call(base, '/api/v1/things', { token, json: [1, 2] });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body']);
  });

  it('accepts money as a JSON number and keeps it as decimal text', async () => {
    const res = await call(base, '/api/v1/things', { token, json: { name: 'ok', amount: 1250.5 } });
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe('1250.5');
  });

  it('never leaks a stack trace or SQL in a 500', async () => {
    const res = await call(base, '/api/v1/boom', { token });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'An unexpected error occurred.', code: 'internal_error' });
    expect(res.text).not.toMatch(/SELECT|passwords|at .*\.ts/);
  });

  it('answers an unknown path with 404 not_found in the contract shape', async () => {
    const res = await call(base, '/api/v2/things', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'not_found' });
  });
});

describe('form and multipart bodies (docs/api/contract.md §3)', () => {
  it('accepts a urlencoded form with repeated keys, JSON metadata and text booleans and numbers', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const res = await call(base, '/api/v1/things', {
      token,
      form: {
        name: 'form',
        count: '3',
        member_ids: [a, b],
        metadata: '{"k":1}',
        enabled: 'false',
        numbers: ['1', '2'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'form',
      count: 3,
      member_ids: [a, b],
      metadata: { k: 1 },
      enabled: false,
      numbers: [1, 2],
    });
  });

  it('wraps a single repeated-key value in an array', async () => {
    const a = randomUUID();
    const res = await call(base, '/api/v1/things', { token, form: { name: 'one', member_ids: a } });
    expect(res.status).toBe(201);
    expect(res.body.member_ids).toEqual([a]);
  });

  it('validates form fields like JSON ones, with the same locs', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      form: {
        name: 'much-too-long-name',
        count: 'abc',
        member_ids: [randomUUID(), 'bad'],
        enabled: 'maybe',
        metadata: '[1',
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], type: 'string_too_long' }),
        expect.objectContaining({ loc: ['body', 'count'], type: 'int_parsing' }),
        expect.objectContaining({ loc: ['body', 'member_ids', '1'], type: 'uuid_parsing' }),
        expect.objectContaining({ loc: ['body', 'enabled'], type: 'bool_parsing' }),
        expect.objectContaining({ loc: ['body', 'metadata'], type: 'dict_type' }),
      ]),
    );
  });

  it('accepts multipart/form-data with the same fields', async () => {
    const form = new FormData();
    form.append('name', 'multi');
    form.append('count', '2');
    form.append('enabled', 'true');
    const res = await call(base, '/api/v1/things', { token, multipart: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'multi', count: 2, enabled: true });
  });

  it('validates multipart fields with 422', async () => {
    const form = new FormData();
    form.append('count', '7');
    const res = await call(base, '/api/v1/things', { token, multipart: form });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'count'], type: 'less_than_equal' }),
      ]),
    );
  });

  it('answers 415 for an unsupported content type', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'unsupported_media_type' });
  });

  it('answers 415 for a form sent to a JSON-only endpoint', async () => {
    const res = await call(base, '/api/v1/json-only', { token, form: { name: 'x' } });
    expect(res.status).toBe(415);
  });

  it('needs no content type for a POST without a body', async () => {
    const res = await call(base, '/api/v1/no-body', { method: 'POST', token });
    expect(res.status).toBe(201);
  });

  it('answers 413 for a JSON body over BODY_LIMIT', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      json: { name: 'x', metadata: { pad: 'x'.repeat(8 * 1024) } },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'payload_too_large' });
  });

  it('answers 413 for a multipart body over BODY_LIMIT on a route that takes no files', async () => {
    const form = new FormData();
    form.append('name', 'x');
    form.append('file', new Blob([Buffer.alloc(64 * 1024)]), 'big.bin');
    const res = await call(base, '/api/v1/things', { token, multipart: form });
    expect(res.status).toBe(413);
  });
});

describe('multipart only where a route declares it', () => {
  const uploadsLeft = async () => (await readdir(tmpdir())).filter((f) => f.startsWith('media-upload-'));

  /** Polls until no temporary upload file is left (they are removed when the response closes). */
  async function expectNoUploadsLeft(before: string[]): Promise<void> {
    const left = await eventually(
      async () => (await uploadsLeft()).filter((f) => !before.includes(f)),
      (files) => files.length === 0,
      { timeoutMs: 3_000, intervalMs: 50 },
    );
    expect(left).toEqual([]);
  }

  it('answers 415 for a multipart body to a route that takes none', async () => {
    const form = new FormData();
    form.append('marker', 'x');
    const res = await call(base, '/api/v1/plain', { token, multipart: form });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'unsupported_media_type' });
    // Small and of known size: dropped by Node after the answer, and the connection kept.
    expect(res.headers.get('connection')).not.toBe('close');
  });

  it('answers 401 to an anonymous multipart upload without reading it', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(8 * 1024)]), 'a.bin');
    const res = await call(base, '/api/v1/uploads', { multipart: form });
    expect(res.status).toBe(401);
    expect(res.headers.get('connection')).toBe('close');
  });

  it('streams a declared file to a temporary file with its size and sha256, removed after the response', async () => {
    const before = await uploadsLeft();
    const bytes = Buffer.concat([Buffer.from('hello multipart!'), randomBytes(4000)]);
    const form = new FormData();
    form.append('marker', 'm');
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), '../../evil.pdf');
    const res = await call(base, '/api/v1/uploads', { token, multipart: form });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      marker: 'm',
      files: [
        {
          field: 'file',
          path: expect.stringContaining('media-upload-'),
          filename: 'evil.pdf',
          mimetype: 'application/pdf',
          size: bytes.length,
          on_disk: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          head: 'hello multipart!',
        },
      ],
    });
    await expectNoUploadsLeft(before);
  });

  it('answers 413 for a chunked upload over UPLOAD_LIMIT without a Content-Length, leaving no file', async () => {
    const before = await uploadsLeft();
    const boundary = 'xyzBOUNDARY';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const chunks = [Buffer.from(head), ...Array.from({ length: 40 }, () => Buffer.alloc(1024, 7))];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    const response = await fetch(`${base}/api/v1/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: expect.any(String), code: 'payload_too_large' });
    await expectNoUploadsLeft(before);
  });

  it('refuses a file sent in a field that takes text with 422', async () => {
    const form = new FormData();
    form.append('name', new Blob(['x']), 'x.txt');
    const res = await call(base, '/api/v1/things', { token, multipart: form });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'string_type' }),
    ]);
  });
});

describe('bad input never reaches a 500 (docs/api/contract.md §2)', () => {
  const nested = (depth: number) => {
    let s = '1';
    for (let i = 0; i < depth; i++) s = `{"a":${s}}`;
    return s;
  };

  it('refuses JSON nested 500 deep with 422 json_invalid at ["body"]', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: `{"name":"x","metadata":${nested(500)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_invalid' })]);
  });

  it('accepts JSON nested within 64 levels', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: `{"name":"x","metadata":${nested(60)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone surrogate', 'a\ud800b'],
  ])('refuses %s in a body string with 422 value_error at its loc', async (_name, bad) => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: JSON.stringify({ name: 'ok', items: [{ label: bad }] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'items', '0', 'label'], type: 'value_error' }),
    ]);
  });

  it('refuses NUL in a query parameter and in a path parameter', async () => {
    const query = await call(base, '/api/v1/items?kind=%00', { token });
    expect(query.status).toBe(422);
    expect(query.body.detail).toEqual([
      expect.objectContaining({ loc: ['query', 'kind'], type: 'value_error' }),
    ]);
    const path = await call(base, '/api/v1/echo/a%00b', { token });
    expect(path.status).toBe(422);
    expect(path.body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'word'], type: 'value_error' }),
    ]);
  });

  it.each(['constructor', '__proto__', 'prototype'])(
    'refuses an object key %s with 422 at its loc',
    async (key) => {
      const res = await call(base, '/api/v1/things', {
        token,
        raw: `{"name":{"${key}":"x"},"metadata":{"a":{"${key}":1}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ loc: ['body', 'name', key], type: 'value_error' }),
          expect.objectContaining({ loc: ['body', 'metadata', 'a', key], type: 'value_error' }),
        ]),
      );
    },
  );

  it("answers what Node's parser refuses in the contract's shape (431 for oversized headers)", async () => {
    const res = await fetch(`${base}/api/v1/items?cursor=${'x'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${token}`, 'x-padding': 'y'.repeat(20_000) },
    });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ detail: expect.any(String), code: 'request_header_fields_too_large' });
  });

  it('refuses a body of null with 422 model_type', async () => {
    const res = await call(base, '/api/v1/things', {
      token,
      raw: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'model_type' })]);
  });

  it('refuses a scalar query parameter given twice', async () => {
    const res = await call(base, '/api/v1/items?page_size=20&page_size=30', { token });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'page_size'] })]);
  });

  it.each(['0000-01-01', '+010000-01-01'])('refuses the date %s (years 1..9999 only)', async (day) => {
    const res = await call(base, '/api/v1/things', { token, json: { name: 'x', day } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'day'], type: 'date_parsing' }),
    ]);
  });
});

describe('cursor pagination (docs/api/contract.md §3)', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    // 45 rows, ranks with many ties, so the order must fall back on the id.
    const values: string[] = [];
    for (let i = 0; i < 45; i++) {
      const id = randomUUID();
      ids.push(id);
      values.push(`('${id}', ${i % 4}, '${i % 3 === 0 ? 'a' : 'b'}')`);
    }
    await queryDatabase(fixture.db, `INSERT INTO fixture_items (id, rank, kind) VALUES ${values.join(',')}`);
  });

  const path = (url: string) => url.replace(/^https?:\/\/[^/]+\/fixture/, '');

  it('walks forward and back over ties without losing or repeating a row', async () => {
    const seen: string[] = [];
    let res = await call(base, '/api/v1/items?page_size=10', { token });
    expect(res.body.previous).toBeNull();
    const pages = [res.body];
    while (res.body.next) {
      res = await call(base, path(res.body.next), { token });
      pages.push(res.body);
    }
    for (const page of pages) seen.push(...page.results.map((r: { id: string }) => r.id));
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const expected = await queryDatabase<{ id: string }>(
      fixture.db,
      'SELECT id FROM fixture_items ORDER BY rank DESC, id DESC',
    );
    expect(seen).toEqual(expected.map((r) => r.id));
    expect(pages).toHaveLength(5);
    expect(pages[4].next).toBeNull();

    // and back again from the last page
    const back: string[][] = [];
    let page = pages[4];
    while (page.previous) {
      page = (await call(base, path(page.previous), { token })).body;
      back.unshift(page.results.map((r: { id: string }) => r.id));
    }
    expect(back.flat()).toEqual(seen.slice(0, 40));
    expect(page.previous).toBeNull();
  });

  it('builds absolute links from X-Forwarded-* and keeps the other query parameters', async () => {
    const res = await call(base, '/api/v1/items?page_size=5&kind=a', {
      token,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'media.example.com' },
    });
    expect(res.status).toBe(200);
    const next = new URL(res.body.next);
    expect(next.origin).toBe('https://media.example.com');
    expect(next.pathname).toBe('/fixture/api/v1/items');
    expect(next.searchParams.get('kind')).toBe('a');
    expect(next.searchParams.get('page_size')).toBe('5');
    expect(res.body.results.every((r: { kind: string }) => r.kind === 'a')).toBe(true);
  });

  it('defaults page_size to 20', async () => {
    const res = await call(base, '/api/v1/items', { token });
    expect(res.body.results).toHaveLength(20);
  });

  it.each([
    ['0', 'greater_than_equal'],
    ['101', 'less_than_equal'],
    ['abc', 'int_parsing'],
    ['2.5', 'int_parsing'],
  ])('refuses page_size=%s with 422 at ["query","page_size"]', async (value, type) => {
    const res = await call(base, `/api/v1/items?page_size=${value}`, { token });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['query', 'page_size'], msg: expect.any(String), type }]);
  });

  it('refuses a tampered cursor with 422 at ["query","cursor"]', async () => {
    const first = await call(base, '/api/v1/items?page_size=5', { token });
    const cursor = new URL(first.body.next).searchParams.get('cursor') as string;
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ d: 'n', k: [99, randomUUID()] })).toString('base64url');
    for (const bad of [
      `${forged}.${signature}`,
      `${body}.${signature.slice(0, -2)}xx`,
      'garbage',
      `${body}`,
    ]) {
      const res = await call(base, `/api/v1/items?cursor=${encodeURIComponent(bad)}`, { token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        { loc: ['query', 'cursor'], msg: expect.any(String), type: 'value_error' },
      ]);
    }
  });
});

describe('NATS requests (docs/api/contract.md §5)', () => {
  it('maps a subject nobody answers to 503 upstream_unavailable', async () => {
    const res = await call(base, '/api/v1/ask/nobody', { token });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
  });

  it('maps a responder that never answers to 503 after the deadline', async () => {
    const silent = nats.subscribe('fixture.silent');
    await nats.flush();
    const started = Date.now();
    const res = await call(base, '/api/v1/ask/silent', { token });
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    silent.unsubscribe();
  });

  it('maps a responder that has gone away to 503', async () => {
    const gone = nats.subscribe('fixture.gone', {
      max: 1,
      callback: (_err, msg) => void msg.respond(JSON.stringify({ response: { ok: true }, isDisposed: true })),
    });
    await nats.flush();
    gone.unsubscribe();
    await nats.flush();
    const res = await call(base, '/api/v1/ask/gone', { token });
    expect(res.status).toBe(503);
  });
});

describe('request ids and health (docs/api/contract.md §2, §6)', () => {
  it('echoes a given X-Request-Id and makes one when absent', async () => {
    const given = await call(base, '/health/live', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await call(base, '/health/live');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports ready with its database and NATS', async () => {
    const res = await call(base, '/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.details).toMatchObject({ database: { status: 'up' }, nats: { status: 'up' } });
  });
});
