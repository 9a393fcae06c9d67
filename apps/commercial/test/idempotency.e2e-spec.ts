/**
 * Idempotency keys (docs/api/contract.md §7.1), in full on commercial's creates: replays, reuse
 * with another body, a failed first answer, racing requests, two replicas, expiry and the
 * in-flight timeout. The platform piece is the same in every app; each app's own file covers
 * its creates.
 */
import type { ChildProcess } from 'node:child_process';
import {
  call,
  eventually,
  expectReplayOf,
  freePort,
  idempotencyKey,
  keyReused,
  spawnDist,
  stopChild,
  waitReady,
} from '@media/testing';
import { commercial, commercialDb, salesToken, system, tokenWith, unique } from './support';

const clientsNamed = async (name: string) =>
  (await commercialDb(`SELECT count(*)::int AS n FROM clients WHERE name = $1`, [name]))[0].n as number;
const keyRow = async (key: string) =>
  commercialDb(`SELECT status, expires_at FROM idempotency_keys WHERE key = $1`, [key]);

describe('Idempotency-Key on POST /commercial/api/v1/clients', () => {
  it('replays the first answer byte for byte, with Idempotent-Replayed, and creates once', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Idem'), category: 'TELCO' };
    const first = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expect(first.status).toBe(201);
    const replay = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expectReplayOf(replay, first);
    expect(await clientsNamed(json.name)).toBe(1);
  });

  it('leaves requests without the header as they were', async () => {
    const json = { name: unique('NoKey'), category: 'TELCO' };
    const first = await commercial('/api/v1/clients', { token: salesToken(), json });
    const second = await commercial('/api/v1/clients', { token: salesToken(), json });
    expect([first.status, second.status]).toEqual([201, 409]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.code).toBe('client_name_taken');
  });

  it('refuses the same key with another body with 422 idempotency_key_reused, and creates nothing', async () => {
    const headers = idempotencyKey();
    const name = unique('Reuse');
    const first = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name, category: 'TELCO' },
      headers,
    });
    expect(first.status).toBe(201);
    const other = unique('Other');
    const reused = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: other, category: 'TELCO' },
      headers,
    });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual(keyReused());
    expect(await clientsNamed(other)).toBe(0);
  });

  it('compares the raw bytes of a JSON body: the same fields spelled otherwise are another body', async () => {
    const headers = { ...idempotencyKey(), 'content-type': 'application/json' };
    const name = unique('Bytes');
    const first = await commercial('/api/v1/clients', {
      token: salesToken(),
      raw: `{"name":"${name}","category":"TELCO"}`,
      headers,
    });
    expect(first.status).toBe(201);
    const spaced = await commercial('/api/v1/clients', {
      token: salesToken(),
      raw: `{"name": "${name}", "category": "TELCO"}`,
      headers,
    });
    expect(spaced.status).toBe(422);
    expect(spaced.body).toEqual(keyReused());
  });

  it('frees the key after an answer that is not 2xx: the fixed request succeeds with the same key', async () => {
    const headers = idempotencyKey();
    const name = unique('Fix');
    const invalid = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name, category: '' },
      headers,
    });
    expect(invalid.status).toBe(422);
    expect(await keyRow(headers['idempotency-key'])).toEqual([]);
    const fixed = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name, category: 'TELCO' },
      headers,
    });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(await clientsNamed(name)).toBe(1);
  });

  it('processes exactly one of 10 concurrent requests with one key; the others get 409 with Retry-After or the replay', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Race'), category: 'TELCO' };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => commercial('/api/v1/clients', { token: salesToken(), json, headers })),
    );
    const processed = results.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(processed).toHaveLength(1);
    for (const other of results.filter((r) => r !== processed[0])) {
      if (other.status === 409) {
        expect(other.body).toEqual({ detail: expect.any(String), code: 'idempotency_key_in_flight' });
        expect(other.headers.get('retry-after')).toBe('1');
      } else {
        expectReplayOf(other, processed[0]);
      }
    }
    expect(await clientsNamed(json.name)).toBe(1);
  });

  it('scopes a key to its caller: another user with the same key is processed on its own', async () => {
    const headers = idempotencyKey();
    const first = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: unique('Mine'), category: 'TELCO' },
      headers,
    });
    const theirs = await commercial('/api/v1/clients', {
      token: tokenWith(['analytics:sales']),
      json: { name: unique('Theirs'), category: 'TELCO' },
      headers,
    });
    expect([first.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes a key to the path: the same key on clients and deals is two keys', async () => {
    const headers = idempotencyKey();
    const client = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: unique('Path'), category: 'TELCO' },
      headers,
    });
    expect(client.status).toBe(201);
    const deal = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: {
        client_id: client.body.id,
        contracted_revenue: '10.00',
        contract_date: '2026-01-05',
        status: 'WON',
      },
      headers,
    });
    expect(deal.status).toBe(201);
    expect(deal.headers.get('idempotent-replayed')).toBeNull();
    const dealAgain = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: {
        client_id: client.body.id,
        contracted_revenue: '10.00',
        contract_date: '2026-01-05',
        status: 'WON',
      },
      headers,
    });
    expectReplayOf(dealAgain, deal);
    expect(
      await commercialDb(`SELECT count(*)::int AS n FROM deals WHERE client_id = $1`, [client.body.id]),
    ).toEqual([{ n: 1 }]);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a non-ASCII character', 'clé'],
  ])('refuses a key that is %s with 422 at the header', async (_name, key) => {
    const name = unique('BadKey');
    const res = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name, category: 'TELCO' },
      headers: { 'idempotency-key': key },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [{ loc: ['header', 'idempotency-key'], msg: expect.any(String), type: 'value_error' }],
    });
    expect(await clientsNamed(name)).toBe(0);
  });

  it('ignores a kept answer past its expiry: the key is processed again', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Expired'), category: 'TELCO' };
    const first = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expect(first.status).toBe(201);
    await commercialDb(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`,
      [headers['idempotency-key']],
    );
    const again = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    // Processed anew: the name is taken by the first, which is what a second create answers.
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('client_name_taken');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('frees a key left in flight for longer than the request timeout (its request crashed)', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Crashed'), category: 'TELCO' };
    const first = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expect(first.status).toBe(201);
    // As a crash would leave it: in flight, never settled, claimed long ago.
    await commercialDb(
      `UPDATE idempotency_keys SET status = NULL, body = NULL, expires_at = NULL,
              locked_at = now() - interval '1 day' WHERE key = $1`,
      [headers['idempotency-key']],
    );
    const fresh = { name: unique('Recovered'), category: 'TELCO' };
    // Same body as the crashed one would be the usual retry; any body may take a free key.
    const retried = await commercial('/api/v1/clients', { token: salesToken(), json: fresh, headers });
    expect(retried.status).toBe(201);
    expect(retried.body.name).toBe(fresh.name);
  });

  it('answers 409 idempotency_key_in_flight while a recent claim is in flight', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Busy'), category: 'TELCO' };
    const first = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expect(first.status).toBe(201);
    await commercialDb(
      `UPDATE idempotency_keys SET status = NULL, body = NULL, expires_at = NULL, locked_at = now() WHERE key = $1`,
      [headers['idempotency-key']],
    );
    const busy = await commercial('/api/v1/clients', { token: salesToken(), json, headers });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ detail: expect.any(String), code: 'idempotency_key_in_flight' });
    expect(busy.headers.get('retry-after')).toBe('1');
  });
});

describe('Idempotency-Key across two replicas of commercial', () => {
  let replica: { url: string; child: ChildProcess } | undefined;

  /** A second commercial on the stack's database, with a short IDEMPOTENCY_TTL of its own. */
  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = spawnDist('commercial', {
      ...system().env,
      PORT: String(port),
      COMMERCIAL_PORT: String(port),
      DATABASE_URL: system().databases.commercial,
      IDEMPOTENCY_TTL: '1s',
      LOG_LEVEL: 'warn',
    });
    replica = { url, child: started.child };
    await waitReady(`${url}/commercial/health/ready`, started, 30_000);
  }, 40_000);

  afterAll(async () => {
    await stopChild(replica?.child);
  });

  it('replays on one replica the answer the other kept, and agrees on one winner when both race', async () => {
    const urls = [system().urls.commercial, replica!.url];
    const headers = idempotencyKey();
    const json = { name: unique('Replica'), category: 'TELCO' };
    const first = await call(urls[0], '/commercial/api/v1/clients', { token: salesToken(), json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(
      await call(urls[1], '/commercial/api/v1/clients', { token: salesToken(), json, headers }),
      first,
    );

    const racing = idempotencyKey();
    const raced = { name: unique('ReplicaRace'), category: 'TELCO' };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(urls[i % 2], '/commercial/api/v1/clients', {
          token: salesToken(),
          json: raced,
          headers: racing,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await clientsNamed(raced.name)).toBe(1);
  });

  it('deletes kept answers once IDEMPOTENCY_TTL has passed; the key is then processed again', async () => {
    const headers = idempotencyKey();
    const json = { name: unique('Ttl'), category: 'TELCO' };
    const first = await call(replica!.url, '/commercial/api/v1/clients', {
      token: salesToken(),
      json,
      headers,
    });
    expect(first.status).toBe(201);
    // The replica's cleanup (every second with a 1 s TTL) deletes the row: wait for that event.
    expect(
      await eventually(
        () => keyRow(headers['idempotency-key']),
        (rows) => rows.length === 0,
        15_000,
      ),
    ).toEqual([]);
    const again = await call(replica!.url, '/commercial/api/v1/clients', {
      token: salesToken(),
      json,
      headers,
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('client_name_taken');
  });
});
