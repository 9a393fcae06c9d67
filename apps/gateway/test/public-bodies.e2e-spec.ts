/**
 * PUBLIC_BODY_LIMIT through the gateway (against a fake upstream): a body sent without a token,
 * to the public routes that take one (login, refresh, an invitation's acceptance), is refused
 * with the contract's 413 once it is over the smaller limit, declared or chunked, before the
 * upstream sees it; the same body with a token to an authenticated route still goes through.
 */
import { mintToken } from '@media/testing';
import {
  startFakeUpstream,
  bootGateway,
  type BootedGateway,
  type FakeUpstream,
} from './support/fake-upstream';
import { expectTooLarge, head, postBody, RawConnection } from './support/raw-client';

const PUBLIC_LIMIT = 4096;

let upstream: FakeUpstream;
let gw: BootedGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  gw = await bootGateway(upstream, { PUBLIC_BODY_LIMIT: String(PUBLIC_LIMIT) });
});

afterAll(async () => {
  await gw.gateway.close();
  await upstream.close();
});

const PUBLIC_ROUTES = [
  '/acl/api/v1/auth/token',
  '/acl/api/v1/auth/refresh',
  '/acl/api/v1/auth/invitations/some-invitation-token/accept',
];
const json = (size: number) => ({ 'content-type': 'application/json', 'content-length': size });

/** A JSON object of `keys` members, `{"k0":1,...}`, as the flood of many keys sends it. */
const manyKeys = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;

describe('a body without a token over PUBLIC_BODY_LIMIT', () => {
  it.each(PUBLIC_ROUTES)('is 413 payload_too_large at %s, the upstream never asked', async (path) => {
    const before = upstream.hits.get(path) ?? 0;
    const connection = await RawConnection.open(gw.port);
    expectTooLarge(await postBody(connection, path, PUBLIC_LIMIT + 1, json(PUBLIC_LIMIT + 1)));
    connection.destroy();
    expect(upstream.hits.get(path) ?? 0).toBe(before);
  });

  it('is 413 when chunked, once the bytes pass the limit', async () => {
    const connection = await RawConnection.open(gw.port);
    const answer = await postBody(
      connection,
      '/acl/api/v1/auth/token',
      PUBLIC_LIMIT * 4,
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      true,
    );
    connection.destroy();
    expectTooLarge(answer);
  });

  it('refuses the 80,000-key object of the flood with 413, a body of its real shape', async () => {
    const body = manyKeys(80_000);
    const res = await fetch(`${gw.url}/acl/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('refuses an Expect: 100-continue upload before it is sent', async () => {
    const connection = await RawConnection.open(gw.port);
    await connection.write(
      head('POST', '/acl/api/v1/auth/token', { ...json(PUBLIC_LIMIT + 1), expect: '100-continue' }),
    );
    const answer = await connection.read(5_000);
    connection.destroy();
    expectTooLarge(answer);
  });
});

describe('bodies the smaller limit leaves alone', () => {
  it('forwards a login body within PUBLIC_BODY_LIMIT', async () => {
    const res = await fetch(`${gw.url}/acl/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', password: 'x'.repeat(PUBLIC_LIMIT - 200) }),
    });
    // The fake acl answers every login 401 after reading the body.
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'invalid_credentials' });
  });

  it('forwards a body over PUBLIC_BODY_LIMIT (within BODY_LIMIT) sent with a token', async () => {
    const size = PUBLIC_LIMIT * 8;
    const res = await fetch(`${gw.url}/content/api/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${mintToken(upstream.keys)}` },
      body: JSON.stringify({ text: 'x'.repeat(size) }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { bytes: number }).bytes).toBeGreaterThan(size);
  });
});
