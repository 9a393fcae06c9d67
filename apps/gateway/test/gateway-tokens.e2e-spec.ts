/**
 * The gateway's token pre-check (docs/api/contract.md §1).
 * The gateway runs in-process against the fake upstream of ./support/gateway-fixture.
 */
import { randomUUID } from 'node:crypto';
import {
  bearer,
  boot,
  call,
  hs256WithPublicKey,
  lastSeen,
  main,
  mint,
  strangerKey,
  unsignedToken,
  useGatewayFixture,
} from './support/gateway-fixture';

useGatewayFixture();

// ------------------------------------------------------------------ authentication

describe('token pre-check (docs/api/contract.md §1)', () => {
  async function expect401(headers: Record<string, string>, code: string): Promise<void> {
    const requestId = randomUUID();
    const res = await call(main.url, '/content/api/v1/lineup', {
      headers: { ...headers, 'x-request-id': requestId },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ detail: expect.any(String), code });
    expect(lastSeen(requestId)).toBeUndefined();
  }

  it('answers a CORS preflight itself without a token, and never forwards it', async () => {
    const requestId = randomUUID();
    const res = await call(main.url, '/content/api/v1/lineup', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'x-request-id': requestId,
      },
    });
    expect(res.status).not.toBe(401);
    expect(lastSeen(requestId)).toBeUndefined();
  });

  it('still wants a token for an OPTIONS request that is not a preflight', async () => {
    const res = await call(main.url, '/content/api/v1/lineup', { method: 'OPTIONS' });
    expect(res.status).toBe(401);
  });

  it('refuses a request without a token with 401 not_authenticated before forwarding', async () => {
    await expect401({}, 'not_authenticated');
  });

  it('refuses an expired token with 401 token_expired', async () => {
    await expect401(bearer(await mint({ expiresIn: -60 })), 'token_expired');
  });

  it('refuses a token issued more than 30 s in the future, before forwarding', async () => {
    await expect401(bearer(await mint({ issuedIn: 60, expiresIn: 660 })), 'token_invalid');
  });

  it('refuses a token living longer than the 15-minute access lifetime, before forwarding', async () => {
    await expect401(bearer(await mint({ expiresIn: 901 })), 'token_invalid');
  });

  it('follows JWT_ACCESS_TTL and JWT_CLOCK_SKEW when set (as acl is)', async () => {
    const strict = await boot({ JWT_ACCESS_TTL: '5m', JWT_CLOCK_SKEW: '0' });
    try {
      const long = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ expiresIn: 600 })),
      });
      expect(long.status).toBe(401);
      expect(long.json()).toEqual({ detail: expect.any(String), code: 'token_invalid' });
      const ahead = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ issuedIn: 10, expiresIn: 250 })),
      });
      expect(ahead.status).toBe(401);
      const fine = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ expiresIn: 300 })),
      });
      expect(fine.status).toBe(200);
    } finally {
      await strict.gateway.close();
    }
  });

  it('accepts a token of exactly the 15-minute lifetime issued 10 s ahead (clock skew)', async () => {
    const res = await call(main.url, '/content/api/v1/lineup', {
      headers: bearer(await mint({ issuedIn: 10, expiresIn: 910 })),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a token for another audience', async () => {
    await expect401(bearer(await mint({ aud: 'someone-else' })), 'token_invalid');
  });

  it('refuses a token from another issuer', async () => {
    await expect401(bearer(await mint({ iss: 'evil' })), 'token_invalid');
  });

  it('refuses an unsigned alg:none token', async () => {
    await expect401(bearer(unsignedToken()), 'token_invalid');
  });

  it('refuses an HS256 token keyed with the public key', async () => {
    await expect401(bearer(await hs256WithPublicKey()), 'token_invalid');
  });

  it('refuses a token signed with a key acl does not publish (unknown kid)', async () => {
    await expect401(bearer(await mint({ kid: 'unknown-kid', key: strangerKey })), 'token_invalid');
  });

  it('refuses a token with a known kid but a foreign signature', async () => {
    await expect401(bearer(await mint({ key: strangerKey })), 'token_invalid');
  });

  it('refuses a malformed token and a non-Bearer scheme', async () => {
    await expect401(bearer('not.a.jwt'), 'token_invalid');
    await expect401({ authorization: 'Basic dXNlcjpwYXNz' }, 'not_authenticated');
  });

  it.each([
    ['POST', '/acl/api/v1/auth/token'],
    ['POST', '/acl/api/v1/auth/refresh'],
    ['GET', '/acl/.well-known/jwks.json'],
    ['GET', '/acl/.well-known/audit-keys.json'],
    ['POST', '/acl/api/v1/auth/invitations/abc123/accept'],
    ['GET', '/content/health/ready'],
    ['GET', '/api/health/live'],
    ['GET', '/documents/openapi.json'],
  ])('lets %s %s through without a token', async (method, path) => {
    const res = await call(main.url, path, { method, body: method === 'POST' ? '{}' : undefined });
    expect(res.status).toBeLessThan(300);
  });

  it('still wants a token for the same paths with another method', async () => {
    expect((await call(main.url, '/acl/api/v1/auth/token')).status).toBe(401);
    expect((await call(main.url, '/acl/.well-known/jwks.json', { method: 'DELETE' })).status).toBe(401);
    expect((await call(main.url, '/acl/.well-known/audit-keys.json', { method: 'POST' })).status).toBe(401);
  });
});
