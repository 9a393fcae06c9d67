/**
 * Bounded, typed validation answers through the gateway (docs/api/contract.md §2 "bounded answers",
 * §3 forms): no request within the body limit answers more than 64 KiB, `null` is a 422 where the
 * contract gives it no meaning, invalid Unicode outside JSON bodies is a 422 at its field,
 * charsets other than UTF-8 are 415, malformed multipart bodies 422, and names are not blank,
 * bidi-overridden or full of control characters.
 */
import { randomUUID } from 'node:crypto';
import { call, mintToken, stack, type ApiResponse, type StackInfo } from '@media/testing';

const MAX_ANSWER = 64 * 1024;
let system: StackInfo;
let gw: string;
let admin: string;

beforeAll(() => {
  system = stack();
  gw = system.gatewayUrl;
  admin = mintToken(system.keys, { roles: ['ADMIN'], permissions: ['*'], groups: ['newsroom'] });
});

/** A JSON body sent as text, so 400,000-element arrays need not be built as objects. */
function send(path: string, body: string, options: { token?: string; method?: string } = {}) {
  return call(gw, path, {
    method: options.method ?? 'POST',
    token: options.token,
    raw: body,
    headers: { 'content-type': 'application/json' },
  });
}

/** `[0,0,…]` with n zeros, as JSON text (2n bytes). */
const zeros = (n: number) => `[${Array(n).fill('0').join(',')}]`;

function expectBounded422(res: ApiResponse, loc: string[], type?: string) {
  expect(res.status).toBe(422);
  expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MAX_ANSWER);
  const items = (res.body as { detail: { loc: string[]; type: string }[] }).detail;
  expect(items.filter((item) => item.loc.join('/') === loc.join('/'))).toEqual([
    expect.objectContaining(type ? { loc, type } : { loc }),
  ]);
  return items;
}

describe('422 answers are bounded (docs/api/contract.md §2)', () => {
  const BIG = zeros(400_000);

  it('answers a 400,000-element email at the token endpoint with one item at the field, within 64 KiB', async () => {
    const res = await send('/acl/api/v1/auth/token', `{"email":${BIG},"password":"x"}`);
    const items = expectBounded422(res, ['body', 'email'], 'string_type');
    expect(items).toHaveLength(1);
  });

  it('answers a 400,000-element refresh_token with one item at the field', async () => {
    const res = await send('/acl/api/v1/auth/refresh', `{"refresh_token":${BIG}}`);
    expect(expectBounded422(res, ['body', 'refresh_token'], 'string_type')).toHaveLength(1);
  });

  it('answers a 400,000-element story category name and description with one item each', async () => {
    const res = await send(
      '/content/api/v1/story-categories',
      `{"name":${BIG},"description":${zeros(1000)}}`,
      {
        token: admin,
      },
    );
    const items = expectBounded422(res, ['body', 'name'], 'string_type');
    expectBounded422(res, ['body', 'description'], 'string_type');
    expect(items).toHaveLength(2);
  });

  it('answers 400,000 roles for a new user with one too_long item at roles, before any element is checked', async () => {
    const res = await send(
      '/acl/api/v1/users',
      `{"email":"big-${randomUUID()}@example.com","password":"a long enough password","first_name":"A","last_name":"B","roles":${BIG}}`,
      { token: admin },
    );
    expect(expectBounded422(res, ['body', 'roles'], 'too_long')).toHaveLength(1);
  });

  it('answers 400,000 member_ids for a chat room with one too_long item at member_ids', async () => {
    const res = await send(
      '/api/v1/chat/rooms',
      `{"name":"Desk","group_id":"newsroom","member_ids":${BIG}}`,
      {
        token: admin,
      },
    );
    expect(expectBounded422(res, ['body', 'member_ids'], 'too_long')).toHaveLength(1);
  });

  it('answers a 400,000-element user_id for a direct room with one item at the field', async () => {
    const res = await send('/api/v1/chat/rooms/direct', `{"user_id":${BIG}}`, { token: admin });
    expect(expectBounded422(res, ['body', 'user_id'], 'uuid_parsing')).toHaveLength(1);
  });

  it('keeps each bad list element at its own loc', async () => {
    const ids = [randomUUID(), 'nope', randomUUID(), 7];
    const res = await call(gw, '/api/v1/chat/rooms', {
      token: admin,
      json: { name: 'Desk', group_id: 'newsroom', member_ids: ids },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((item: { loc: string[] }) => item.loc)).toEqual([
      ['body', 'member_ids', '1'],
      ['body', 'member_ids', '3'],
    ]);
  });

  it('stops at 50 items plus one too_many_errors item saying how many were left out', async () => {
    const res = await send(
      '/api/v1/chat/rooms',
      `{"name":"Desk","group_id":"newsroom","member_ids":${zeros(500)}}`,
      {
        token: admin,
      },
    );
    expect(res.status).toBe(422);
    const items = res.body.detail as { loc: string[]; msg: string; type: string }[];
    expect(items).toHaveLength(51);
    expect(items[49].loc).toEqual(['body', 'member_ids', '49']);
    expect(items[50]).toEqual({
      loc: ['body'],
      msg: expect.stringContaining('450'),
      type: 'too_many_errors',
    });
  });
});

describe('null where the contract gives it no meaning (docs/api/contract.md §2)', () => {
  it('refuses a null notification channel with 422 at the field, in the object and the list form', async () => {
    const token = mintToken(system.keys);
    const item = { notification_type: 'chat.message.created', channel: null, enabled: false };
    for (const [json, loc] of [
      [item, ['body', 'channel']],
      [[item], ['body', '0', 'channel']],
    ] as const) {
      const res = await call(gw, '/api/v1/notifications/preferences', { method: 'PUT', token, json });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc, type: 'enum' })]);
    }
  });

  it('still takes null for a field the contract makes nullable (a story category description)', async () => {
    const res = await call(gw, '/content/api/v1/story-categories', {
      token: admin,
      json: { name: `Nullable ${randomUUID()}`, description: null },
    });
    expect(res.status).toBe(201);
    expect(res.body.description).toBeNull();
  });
});

describe('invalid Unicode outside JSON bodies (docs/api/contract.md §2)', () => {
  it.each(['%FF', '%ED%A0%80', 'a%00b'])(
    'refuses %s in a free-text query filter with 422 value_error at the field',
    async (bad) => {
      const res = await call(gw, `/acl/api/v1/users?role=${bad}`, { token: admin });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['query', 'role'], type: 'value_error' }),
      ]);
    },
  );

  it('refuses invalid UTF-8 in a path parameter with 422 value_error at the parameter', async () => {
    const res = await call(gw, '/content/api/v1/story-categories/%FF', { token: admin });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'id'], type: 'value_error' })]);
  });

  it('refuses invalid UTF-8 in an urlencoded form field with 422 value_error at the field', async () => {
    const res = await call(gw, '/api/v1/chat/rooms', {
      token: admin,
      raw: 'name=a%ED%A0%80b&group_id=newsroom',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'value_error' }),
    ]);
  });

  it('refuses invalid UTF-8 in a multipart text field with 422 value_error at the field', async () => {
    const boundary = 'x-boundary-19';
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\na`),
      Buffer.from([0xff, 0xed, 0xa0, 0x80]),
      Buffer.from(
        `b\r\n--${boundary}\r\nContent-Disposition: form-data; name="group_id"\r\n\r\nnewsroom\r\n--${boundary}--\r\n`,
      ),
    ]);
    const res = await call(gw, '/api/v1/chat/rooms', {
      token: admin,
      raw,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'value_error' }),
    ]);
  });
});

describe('content types (docs/api/contract.md §2)', () => {
  it.each(['utf-16', 'iso-8859-1', 'utf-16le'])(
    'refuses application/json; charset=%s with 415',
    async (charset) => {
      const res = await call(gw, '/acl/api/v1/auth/token', {
        raw: Buffer.from('{"email":"a@example.com","password":"x"}', 'utf16le'),
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('unsupported_media_type');
    },
  );

  it('still takes application/json; charset=UTF-8', async () => {
    const res = await call(gw, '/acl/api/v1/auth/token', {
      raw: '{"email":"nobody@example.com","password":"x"}',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(res.status).toBe(401);
  });

  it.each([
    [
      'a wrong boundary',
      (b: string) =>
        `--other\r\nContent-Disposition: form-data; name="name"\r\n\r\nDesk\r\n--other--\r\n` + b.slice(0, 0),
    ],
    ['a body cut mid-part', (b: string) => `--${b}\r\nContent-Disposition: form-data; name="name"\r\n\r\nDe`],
  ])('answers a multipart body with %s with 422 multipart_invalid at ["body"]', async (_, body) => {
    const boundary = 'x-boundary-19';
    const res = await call(gw, '/api/v1/chat/rooms', {
      token: admin,
      raw: body(boundary),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'multipart_invalid' })]);
  });
});

describe('names (docs/api/contract.md §2)', () => {
  it.each([
    ['only whitespace', '   '],
    ['a bidi override', 'Desk\u202Egnp.exe'],
    ['an isolate', 'Desk\u2066x'],
    ['a C0 control character', 'Desk\u0007'],
  ])('refuses a chat room name with %s with 422 at the name', async (_, name) => {
    const res = await call(gw, '/api/v1/chat/rooms', { token: admin, json: { name, group_id: 'newsroom' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'] })]);
  });

  it('refuses a story category named with a bidi override', async () => {
    const res = await call(gw, '/content/api/v1/story-categories', {
      token: admin,
      json: { name: 'News\u202Ecod' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'] })]);
  });
});
