/**
 * Any JSON body within the limit costs bounded work, and its text is taken exactly as sent or
 * refused (docs/api/contract.md §2 "bounded cost", "exact text"), through the gateway and, where
 * the route allows it, without a token: many keys, many small strings, deep nesting, duplicate
 * keys, arrays where objects are expected, bytes that are not UTF-8, and malformed JSON sent to
 * routes that take no body. How long each shape takes is measured in
 * bench/validation-amplification.mjs, not here.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { call, mintToken, stack, type StackInfo } from '@media/testing';

let system: StackInfo;
let gw: string;
let admin: string;

beforeAll(() => {
  system = stack();
  gw = system.gatewayUrl;
  admin = mintToken(system.keys, { roles: ['ADMIN'], permissions: ['*'], groups: ['newsroom'] });
});

/**
 * A JSON body sent as it is given: text, or bytes that need not be UTF-8 (with undici's
 * `request`, which sends a body with a GET too, as a client may).
 */
async function send(
  path: string,
  body: string | Buffer,
  options: { token?: string; method?: 'GET' | 'POST' | 'PUT' | 'DELETE' } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await request(`${gw}${path}`, {
    method: options.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** `"k0":1,"k1":1,…` with n keys. */
const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',');

const extra = (loc: string[]) => ({ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
const leftOut = (n: number) => ({
  loc: ['body'],
  msg: `${n} more errors were left out`,
  type: 'too_many_errors',
});
const firstExtras = (at: string[]) => Array.from({ length: 50 }, (_, i) => extra([...at, `k${i}`]));
const tooWide = (loc: string[], members: number) => ({
  loc,
  msg: `Object should have at most 1000 members, not ${members}`,
  type: 'too_long',
});
const jsonInvalid = (msg: string) => ({ detail: [{ loc: ['body'], msg, type: 'json_invalid' }] });

describe('bounded work whatever the shape of the body (docs/api/contract.md §2)', () => {
  it('answers 1,000 unknown keys at the token endpoint, without a token, with the first 50 and a count', async () => {
    const res = await send('/acl/api/v1/auth/token', `{${keys(1_000)}}`);
    expect(res.status).toBe(422);
    // 1,000 unknown keys and the missing email and password, less the 50 listed.
    expect(res.body).toEqual({ detail: [...firstExtras(['body']), leftOut(952)] });
  });

  it('refuses an object of more than 1,000 members as too_long, without reading the others', async () => {
    const res = await send('/acl/api/v1/auth/token', `{${keys(80_000)}}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [tooWide(['body'], 80_000)] });
    const one = await send('/acl/api/v1/auth/token', `{${keys(1_001)}}`);
    expect(one.body).toEqual({ detail: [tooWide(['body'], 1_001)] });
  });

  it('refuses a nested object of 80,000 members as too_long at its loc', async () => {
    const res = await send(
      '/api/v1/notifications/settings',
      `{"quiet_hours":{"start":"22:00","end":"07:00",${keys(80_000)}}}`,
      { token: mintToken(system.keys), method: 'PUT' },
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [tooWide(['body', 'quiet_hours'], 80_002)] });
  });

  it('answers 900 unknown keys inside a nested object with the first 50 at their loc and a count', async () => {
    const res = await send(
      '/api/v1/notifications/settings',
      `{"quiet_hours":{"start":"22:00","end":"07:00",${keys(900)}}}`,
      { token: mintToken(system.keys), method: 'PUT' },
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [...firstExtras(['body', 'quiet_hours']), leftOut(850)] });
  });

  it('answers 200,000 small strings in an unknown field with one item at the field', async () => {
    const strings = Array(200_000).fill('"a"').join(',');
    const res = await send(
      '/acl/api/v1/auth/token',
      `{"email":"a@example.com","password":"x","k":[${strings}]}`,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [extra(['body', 'k'])] });
  });

  it('refuses a body nested deeper than 64 levels, and a megabyte of brackets, with 422 json_invalid', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const ok = await send('/acl/api/v1/auth/token', `{"email":${nested(63)},"password":"x"}`);
    expect(ok.status).toBe(422);
    expect(ok.body).toEqual({
      detail: [{ loc: ['body', 'email'], msg: expect.any(String), type: 'string_type' }],
    });
    for (const body of [`{"email":${nested(64)},"password":"x"}`, '['.repeat(1_000_000)]) {
      const res = await send('/acl/api/v1/auth/token', body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(jsonInvalid('JSON nested deeper than 64 levels'));
    }
  });

  it('reads up to 1,000 duplicate keys as the last one (a wrong credential is 401), and refuses more', async () => {
    const email = `nobody-${randomUUID()}@example.com`;
    const duplicates = (n: number) =>
      `{"password":"not the password",${`"email":"x@example.com",`.repeat(n)}"email":"${email}"}`;
    const res = await send('/acl/api/v1/auth/token', duplicates(998));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'invalid_credentials' });
    const many = await send('/acl/api/v1/auth/token', duplicates(30_000));
    expect(many.status).toBe(422);
    expect(many.body).toEqual({ detail: [tooWide(['body'], 30_002)] });
  });
});

describe('text is taken exactly as sent or refused (docs/api/contract.md §2)', () => {
  const NOT_UTF8 = jsonInvalid('JSON body is not valid UTF-8');
  const login = (password: Buffer, email: string) =>
    send(
      '/acl/api/v1/auth/token',
      Buffer.concat([Buffer.from(`{"email":"${email}","password":"`), password, Buffer.from('"}')]),
    );

  it('refuses a user whose password holds bytes that are not UTF-8 with 422 json_invalid', async () => {
    const body = Buffer.concat([
      Buffer.from(
        `{"email":"raw-${randomUUID()}@example.com","first_name":"Raw","last_name":"Bytes","password":"`,
      ),
      Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
      Buffer.from('-long-enough"}'),
    ]);
    const res = await send('/acl/api/v1/users', body, { token: admin });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(NOT_UTF8);
  });

  it('never lets two passwords that differ only in invalid bytes both log in', async () => {
    const email = `replacement-${randomUUID()}@example.com`;
    // What a lenient decoder makes of `a\x80\x81\x82\x83b-…` and `a\xE9\xE8\xE0\xFCb-…`.
    const password = 'a\uFFFD\uFFFD\uFFFD\uFFFDb-long-enough';
    const created = await call(gw, '/acl/api/v1/users', {
      token: admin,
      json: { email, password, first_name: 'Replacement', last_name: 'Chars' },
    });
    expect(created.status).toBe(201);

    for (const bytes of [
      [0x80, 0x81, 0x82, 0x83],
      [0xe9, 0xe8, 0xe0, 0xfc],
    ]) {
      const password = Buffer.concat([Buffer.from('a'), Buffer.from(bytes), Buffer.from('b-long-enough')]);
      const res = await login(password, email);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(NOT_UTF8);
    }
    const exact = await login(Buffer.from(password), email);
    expect(exact.status).toBe(200);
  });

  it('refuses a malformed or non-UTF-8 JSON body on routes that take no body, after authentication', async () => {
    const token = mintToken(system.keys, { permissions: ['*'] });
    const group = `/acl/api/v1/groups/${randomUUID()}/members/${randomUUID()}`;
    for (const [path, method] of [
      ['/acl/api/v1/users/me', 'GET'],
      [group, 'DELETE'],
    ] as const) {
      const malformed = await send(path, '{"a":', { token, method });
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual(jsonInvalid('Invalid JSON'));
      const bytes = await send(path, Buffer.from([0x7b, 0x7d, 0xff]), { token, method });
      expect(bytes.status).toBe(422);
      expect(bytes.body).toEqual(NOT_UTF8);
    }
    // Authentication first: no token is 401 whatever the body.
    expect((await send('/acl/api/v1/users/me', '{"a":', { method: 'GET' })).status).toBe(401);
    // A well-formed body is ignored: the group is simply not found.
    expect((await send(group, '{}', { token, method: 'DELETE' })).status).toBe(404);
  });
});
