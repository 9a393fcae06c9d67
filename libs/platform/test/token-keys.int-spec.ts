/**
 * Token verification against acl's JWKS as every app does it (docs/api/contract.md §1, §2): an unreachable
 * JWKS is 503 (never a 401 that makes clients discard good tokens), the time claims are
 * enforced, and the key set is refreshed on its Cache-Control TTL without hammering acl.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  eventually,
  freePort,
  generateTestKeys,
  mintToken,
  type TestKeys,
  testEnv,
} from '@media/testing';
import { createApp } from '../src';
import { fixtureApp } from './fixture/fixture.app';

/** The key store's least time between two fetches (JwksKeyStore's default). */
const MIN_REFRESH_MS = 1_000;

/** A JWKS endpoint whose keys, availability and Cache-Control a test controls. */
class FakeJwks {
  keys: TestKeys[] = [];
  up = true;
  cacheControl = 'public, max-age=300';
  fetches = 0;
  /** When the last fetch arrived (the key store starts its attempt just before). */
  lastFetchAt = 0;
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.fetches += 1;
      this.lastFetchAt = Date.now();
      if (!this.up) {
        req.socket.destroy();
        return;
      }
      const keys = this.keys.map((k) => ({
        ...createPublicKey(k.publicKeyPem).export({ format: 'jwk' }),
        kid: k.kid,
        alg: 'RS256',
        use: 'sig',
      }));
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', this.cacheControl);
      res.end(JSON.stringify({ keys }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}/jwks.json`;
  }

  stop(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }

  /**
   * Until the key store may fetch again: the passing of its 1 s cooldown is what is tested, so
   * this waits out the rest of it, counted from the last fetch this server saw, with a margin.
   */
  async cooldownOver(): Promise<void> {
    const left = this.lastFetchAt + MIN_REFRESH_MS + 50 - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
}

/** Signs arbitrary claims (mintToken always sets iat and exp). */
function sign(keys: TestKeys, claims: Record<string, unknown>): string {
  return jwt.sign(
    {
      sub: randomUUID(),
      email: 't@example.com',
      name: 'T',
      permissions: [],
      iss: 'media-backoffice-acl',
      aud: 'media-backoffice',
      jti: randomUUID(),
      ...claims,
    },
    keys.privateKeyPem,
    // jsonwebtoken adds `iat` unless told not to; a test that sets none means none.
    { algorithm: 'RS256', keyid: keys.kid, noTimestamp: !('iat' in claims) },
  );
}

const now = () => Math.floor(Date.now() / 1000);

async function boot(jwksUrl: string): Promise<{ app: INestApplication; base: string; db: string }> {
  const db = `e2e_${Date.now()}_${Math.random().toString(16).slice(2, 8)}_tokens`;
  await createDatabases([db]);
  const port = await freePort();
  const app = await createApp(
    fixtureApp,
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl(db),
      NATS_URL: testEnv.natsUrl,
      CURSOR_SECRET: 'a'.repeat(48),
      JWT_JWKS_URL: jwksUrl,
      LOG_LEVEL: 'silent',
    },
    { host: '127.0.0.1' },
  );
  return { app, base: `http://127.0.0.1:${port}/fixture`, db };
}

const me = (base: string, token: string) => call(base, '/api/v1/items', { token });

describe('JWKS reachability (docs/api/contract.md §1, §2)', () => {
  const jwks = new FakeJwks();
  const keys = generateTestKeys();
  let booted: { app: INestApplication; base: string; db: string };

  beforeAll(async () => {
    await jwks.start();
    booted = await boot(jwks.url);
  });

  afterAll(async () => {
    await booted?.app.close();
    jwks.stop();
    if (booted) await dropDatabases([booted.db]);
  }, 60_000);

  it('answers 503 upstream_unavailable, not 401, while the JWKS cannot be fetched on a cold cache', async () => {
    jwks.keys = [keys];
    jwks.up = false;
    const res = await me(booted.base, mintToken(keys));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
  });

  it('verifies as soon as the JWKS answers again, and keeps verifying known keys while it is down', async () => {
    jwks.up = true;
    // The failed attempt backs off for a second at most.
    const res = await eventually(
      () => me(booted.base, mintToken(keys)),
      (answer) => answer.status !== 503,
      2_000,
    );
    expect(res.status).toBe(200);
    jwks.up = false;
    expect((await me(booted.base, mintToken(keys))).status).toBe(200);
  });

  it('answers 503 for a new kid while the JWKS is down, and does not hammer it', async () => {
    const rotated = generateTestKeys();
    jwks.keys = [keys, rotated];
    await jwks.cooldownOver();
    const before = jwks.fetches;
    const startedAt = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => me(booted.base, mintToken(rotated))));
    const elapsed = Date.now() - startedAt;
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(503));
    // The first refresh for the new kid and the one queued behind it are shared by the 30; after
    // them the key store backs off at least MIN_REFRESH_MS between attempts. On a loaded machine
    // the 30 may take longer than that to arrive, so one more attempt per elapsed window is allowed
    // (a store that fetched per request would make 30).
    expect(jwks.fetches - before).toBeLessThanOrEqual(2 + Math.floor(elapsed / MIN_REFRESH_MS));
    jwks.up = true;
    // Once the back-off lets it try again, the new kid is fetched and verifies.
    const verified = await eventually(
      () => me(booted.base, mintToken(rotated)),
      (res) => res.status === 200,
      10_000,
    );
    expect(verified.status).toBe(200);
  });

  it('still answers 401 for a kid the reachable JWKS does not publish', async () => {
    jwks.up = true;
    await jwks.cooldownOver();
    const before = jwks.fetches;
    const res = await me(booted.base, mintToken(generateTestKeys()));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
    // The answer comes from asking the JWKS, not from a cooldown.
    expect(jwks.fetches - before).toBe(1);
  });
});

describe('time claims (docs/api/contract.md §1)', () => {
  const jwks = new FakeJwks();
  const keys = generateTestKeys();
  let booted: { app: INestApplication; base: string; db: string };

  beforeAll(async () => {
    jwks.keys = [keys];
    await jwks.start();
    booted = await boot(jwks.url);
  });

  afterAll(async () => {
    await booted?.app.close();
    jwks.stop();
    if (booted) await dropDatabases([booted.db]);
  }, 60_000);

  it('refuses a correctly signed token without exp with 401 token_invalid', async () => {
    const res = await me(booted.base, sign(keys, { iat: now() }));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
  });

  it('refuses a token issued more than 30 s in the future, and accepts one 10 s ahead (clock skew)', async () => {
    const ahead = await me(booted.base, sign(keys, { iat: now() + 60, exp: now() + 60 + 600 }));
    expect(ahead.status).toBe(401);
    expect(ahead.body.code).toBe('token_invalid');
    expect((await me(booted.base, sign(keys, { iat: now() + 10, exp: now() + 610 }))).status).toBe(200);
  });

  it('refuses a token living longer than JWT_ACCESS_TTL (15 min), and accepts exactly 15 min', async () => {
    const long = await me(booted.base, sign(keys, { iat: now(), exp: now() + 901 }));
    expect(long.status).toBe(401);
    expect(long.body.code).toBe('token_invalid');
    const noIat = await me(booted.base, sign(keys, { exp: now() + 24 * 3600 }));
    expect(noIat.status).toBe(401);
    expect((await me(booted.base, sign(keys, { iat: now(), exp: now() + 900 }))).status).toBe(200);
  });
});

describe('JWKS refresh on its TTL (key retirement)', () => {
  const jwks = new FakeJwks();
  const retiring = generateTestKeys();
  const current = generateTestKeys();
  let booted: { app: INestApplication; base: string; db: string };

  beforeAll(async () => {
    jwks.keys = [current, retiring];
    jwks.cacheControl = 'public, max-age=1';
    await jwks.start();
    booted = await boot(jwks.url);
  });

  afterAll(async () => {
    await booted?.app.close();
    jwks.stop();
    if (booted) await dropDatabases([booted.db]);
  }, 60_000);

  it('stops accepting a retired key once the cached set is older than its max-age', async () => {
    expect((await me(booted.base, mintToken(retiring))).status).toBe(200);
    jwks.keys = [current];
    const before = jwks.fetches;
    // Accepted until the set is past its max-age (1 s); the first request after that is answered
    // from the stale set while it is refreshed, the ones after the refresh refuse it.
    const res = await eventually(
      () => me(booted.base, mintToken(retiring)),
      (answer) => answer.status !== 200,
      5_000,
    );
    expect(res.status).toBe(401);
    expect(jwks.fetches - before).toBe(1);
    expect((await me(booted.base, mintToken(current))).status).toBe(200);
  });

  it('stops accepting a token it has verified before once that token’s key is retired', async () => {
    const rotated = generateTestKeys();
    jwks.keys = [current, rotated];
    const token = mintToken(rotated);
    // A new kid is fetched at most once a second: accepted once the set holding it is read.
    const accepted = await eventually(
      () => me(booted.base, token),
      (res) => res.status === 200,
      10_000,
    );
    expect(accepted.status).toBe(200);
    // Then answered from the verified tokens.
    expect((await me(booted.base, token)).status).toBe(200);
    jwks.keys = [current];
    const refused = await eventually(
      () => me(booted.base, token),
      (res) => res.status !== 200,
      10_000,
    );
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('token_invalid');
  });

  it('fetches at most once per max-age while keys are known', async () => {
    const before = jwks.fetches;
    const started = Date.now();
    let requests = 0;
    // Requests back to back until the set has been refreshed twice, over more than one max-age.
    while (jwks.fetches - before < 2 && Date.now() - started < 10_000) {
      expect((await me(booted.base, mintToken(current))).status).toBe(200);
      requests += 1;
    }
    expect(jwks.fetches - before).toBe(2);
    // One refresh per elapsed max-age (1 s) at most, however many requests.
    expect(jwks.fetches - before).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / 1000));
    expect(requests).toBeGreaterThan(jwks.fetches - before);
  });
});

describe('key rotation: a new kid is verified at once (docs/api/contract.md §2 "What is not public")', () => {
  const jwks = new FakeJwks();
  const current = generateTestKeys();
  // Made ahead: generating keys takes long enough for idle connections to be closed meanwhile.
  const strangers = Array.from({ length: 20 }, () => generateTestKeys());
  let booted: { app: INestApplication; base: string; db: string };

  beforeAll(async () => {
    jwks.keys = [current];
    await jwks.start();
    booted = await boot(jwks.url);
    expect((await me(booted.base, mintToken(current))).status).toBe(200);
  });

  afterAll(async () => {
    await booted?.app.close();
    jwks.stop();
    if (booted) await dropDatabases([booted.db]);
  }, 60_000);

  it('verifies a kid published right after the set was fetched, without waiting out a cooldown', async () => {
    // A kid the JWKS does not publish makes the app fetch the set now.
    const before = jwks.fetches;
    expect((await me(booted.base, mintToken(generateTestKeys()))).status).toBe(401);
    expect(jwks.fetches - before).toBe(1);
    // acl publishes a new key, then signs with it: the very next request with it is accepted.
    const rotated = generateTestKeys();
    jwks.keys = [rotated, current];
    const answers = await Promise.all(Array.from({ length: 20 }, () => me(booted.base, mintToken(rotated))));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    // Twenty requests at once share one fetch, 200 ms at most after the one before.
    expect(jwks.fetches - before).toBeLessThanOrEqual(3);
  });

  it('does not ask again for a kid a fetch did not find, and coalesces a flood of unknown kids', async () => {
    const stranger = strangers.pop()!;
    const before = jwks.fetches;
    expect((await me(booted.base, mintToken(stranger))).status).toBe(401);
    expect(jwks.fetches - before).toBe(1);
    const again = await Promise.all(Array.from({ length: 20 }, () => me(booted.base, mintToken(stranger))));
    expect(again.map((res) => res.status)).toEqual(Array(20).fill(401));
    expect(jwks.fetches - before).toBe(1);
    // Nineteen different unknown kids at once: refused, for a few shared fetches (one per 200 ms
    // at most), not one each.
    const flood = await Promise.all(strangers.map((keys) => me(booted.base, mintToken(keys))));
    expect(flood.map((res) => res.status)).toEqual(Array(19).fill(401));
    expect(jwks.fetches - before).toBeLessThanOrEqual(5);
  });
});
