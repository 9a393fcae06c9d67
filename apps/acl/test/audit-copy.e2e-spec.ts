/**
 * acl's part of the audit trail (CONTRACT §8.2, §8.3): signing checkpoints over NATS, the keys
 * published at audit-keys.json, the AUDITOR role, and the merged copy at `GET audit/all`, fed by
 * the AUDIT stream. The apps' publishers are stood in for by this file: it publishes sealed §8.1
 * entries (hashed with `entryHash`) to `audit.<app>` itself, as they do.
 */
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { AUDIT_STREAM, auditMessageId, auditSubject } from '@media/contracts';
import { entryHash, type AuditEntry } from '@media/core';
import { Client } from 'pg';
import { analyzedPlan, call, e2eStack, eventually, rowsRead, rpcTestClientForFile } from '@media/testing';
import { acl, aclDb, createUser, follow, gateway, login, system, tokenWith } from './support';

const rpc = rpcTestClientForFile(() => system().env.NATS_URL);
const SIGN = 'acl.audit.sign-checkpoint';
const HASH = 'ab'.repeat(32);

const checkpoint = (fields: Record<string, unknown> = {}) => ({
  app: 'content',
  seq: 42,
  hash: HASH,
  at: '2026-11-27T12:00:00.000Z',
  ...fields,
});

describe('acl.audit.sign-checkpoint', () => {
  it('signs {app, seq, hash, at} as a compact RS256 JWS with kid, verifiable with the audit-keys.json key of that kid', async () => {
    const asked = checkpoint({ app: 'commercial', seq: 7 });
    const reply = await rpc.ask<{ kid: string; jws: string }>(SIGN, asked);
    expect(reply.err).toBeUndefined();
    const { kid, jws } = reply.response!;
    expect(jws.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(jws)).toEqual({ alg: 'RS256', kid });

    const keys = await call(gateway(), '/acl/.well-known/audit-keys.json');
    const jwk = keys.body.keys.find((key: { kid: string }) => key.kid === kid);
    expect(jwk).toEqual({ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid, alg: 'RS256', use: 'sig' });
    const { payload } = await compactVerify(jws, await importJWK(jwk, 'RS256'));
    expect(new TextDecoder().decode(payload)).toBe(JSON.stringify(asked));
  });

  it('signs with the key tokens are signed with now, and records it once with when it first signed', async () => {
    const first = (await rpc.ask(SIGN, checkpoint())).response;
    const second = (await rpc.ask(SIGN, checkpoint({ seq: 43 }))).response;
    expect(second.kid).toBe(first.kid);
    const jwks = await call(gateway(), '/acl/.well-known/jwks.json');
    expect(jwks.body.keys.map((key: { kid: string }) => key.kid)).toContain(first.kid);
    const rows = await aclDb(`SELECT kid, first_signed_at FROM audit_signing_keys WHERE kid = $1`, [
      first.kid,
    ]);
    expect(rows).toEqual([{ kid: first.kid, first_signed_at: expect.any(Date) }]);
  });

  it.each([
    ['an unknown app', { app: 'nope' }, 'app'],
    ['the gateway (it keeps no audit trail)', { app: 'gateway' }, 'app'],
    ['seq 0', { seq: 0 }, 'seq'],
    ['a fractional seq', { seq: 1.5 }, 'seq'],
    ['a seq as a string', { seq: '3' }, 'seq'],
    ['a hash of 63 hex digits', { hash: 'a'.repeat(63) }, 'hash'],
    ['an uppercase hash', { hash: 'AB'.repeat(32) }, 'hash'],
    ['a hash that is not hex', { hash: 'g'.repeat(64) }, 'hash'],
    ['an at without a time zone', { at: '2026-11-27T12:00:00' }, 'at'],
    ['an at that is no date', { at: 'yesterday' }, 'at'],
  ])('answers %s with a 422 error payload at ["data", field]', async (_case, fields, field) => {
    const reply = await rpc.ask(SIGN, checkpoint(fields));
    expect(reply.response).toBeUndefined();
    expect(reply.err).toMatchObject({ status: 422, code: 'validation_error' });
    expect(reply.err!.detail).toEqual([expect.objectContaining({ loc: ['data', field] })]);
  });

  it('answers a payload missing every field with a 422 naming each of them', async () => {
    const reply = await rpc.ask(SIGN, {});
    const locs = (reply.err!.detail as { loc: string[] }[]).map((issue) => issue.loc[1]).sort();
    expect(locs).toEqual(['app', 'at', 'hash', 'seq']);
  });
});

describe('GET /acl/.well-known/audit-keys.json', () => {
  it('is a JWKS anyone may fetch without a token, cacheable like jwks.json', async () => {
    await rpc.ask(SIGN, checkpoint());
    const res = await call(gateway(), '/acl/.well-known/audit-keys.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.body.keys.length).toBeGreaterThan(0);
    for (const key of res.body.keys)
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('keeps publishing a key that signed a checkpoint after the token JWKS stopped publishing it', async () => {
    const { kid } = (await rpc.ask(SIGN, checkpoint())).response;
    // A key that signed long ago and has since been unpublished from jwks.json: its row stays,
    // the signing key's own row is not what audit-keys.json reads.
    const retired = `retired-${randomUUID()}`;
    const [{ public_jwk: jwk }] = await aclDb(`SELECT public_jwk FROM audit_signing_keys WHERE kid = $1`, [
      kid,
    ]);
    await aclDb(
      `INSERT INTO audit_signing_keys (kid, public_jwk, first_signed_at) VALUES ($1, $2, now() - interval '400 days')`,
      [retired, { ...jwk, kid: retired }],
    );
    const jwks = await call(gateway(), '/acl/.well-known/jwks.json');
    expect(jwks.body.keys.map((key: { kid: string }) => key.kid)).not.toContain(retired);
    const audit = await call(gateway(), '/acl/.well-known/audit-keys.json');
    const kids = audit.body.keys.map((key: { kid: string }) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([retired, kid]));
    // Oldest first: the order keys first signed in.
    expect(kids.indexOf(retired)).toBeLessThan(kids.indexOf(kid));
  });

  it('refuses other methods without a token (only GET is public)', async () => {
    const res = await call(gateway(), '/acl/.well-known/audit-keys.json', { method: 'POST', json: {} });
    expect(res.status).toBe(401);
  });
});

/** A run of sealed entries of one app from `seq` on, each hashed on the one before. */
function sealed(
  app: string,
  fromSeq: number,
  fields: Partial<Omit<AuditEntry, 'seq' | 'app' | 'prev_hash' | 'hash'>>[],
): AuditEntry[] {
  let prev = 'f'.repeat(64);
  return fields.map((extra, index) => {
    const entry = {
      id: randomUUID(),
      seq: fromSeq + index,
      at: '2026-11-27T12:00:00.000Z',
      app,
      action: 'booking.updated',
      actor: { type: 'user' as const, id: randomUUID(), name: 'Ana Lima' },
      resource: { type: 'booking', id: randomUUID() },
      request_id: null,
      cause: null,
      changes: { status: ['DRAFT', 'CONFIRMED'] as [unknown, unknown] },
      prev_hash: prev,
      ...extra,
    };
    prev = entryHash(entry);
    return { ...entry, hash: prev };
  });
}

/** A seq range of this test's own, so tests never meet each other's entries. */
const freshSeq = () => 1_000_000 + Math.floor(Math.random() * 1_000_000_000);

/**
 * Stands in for the apps' publishers as they published before runs: one JetStream message per
 * entry (a §8.1 object), id `<app>:<seq>`; such messages are still read.
 */
async function publish(...entries: (AuditEntry | { subject: string; raw: string })[]): Promise<void> {
  const jsm = await jetstreamManager(rpc.nc);
  await eventually(
    () =>
      jsm.streams.info(AUDIT_STREAM).then(
        () => true,
        () => false,
      ),
    Boolean,
    { orThrow: 'acl created no AUDIT stream', timeoutMs: 10_000 },
  );
  const js = jetstream(rpc.nc);
  for (const entry of entries) {
    if ('raw' in entry) await js.publish(entry.subject, entry.raw);
    else
      await js.publish(auditSubject(entry.app), JSON.stringify(entry), {
        msgID: `${entry.app}:${entry.seq}`,
      });
  }
}

describe('GET /acl/api/v1/audit/all (the merged copy)', () => {
  let auditor: string;
  beforeAll(async () => {
    const user = await createUser({ roles: ['AUDITOR'] });
    auditor = (await login(user.email, user.password)).body.access_token;
  });

  const all = (query: string, token = auditor) => acl(`/api/v1/audit/all?${query}`, { token });

  it('lists entries published on audit.<app> within 5 s, each exactly the §8.1 object', async () => {
    const request = `req-${randomUUID()}`;
    const entries = sealed('content', freshSeq(), [
      { request_id: request, action: 'lineup.slot.created', changes: { title: [null, 'News'] } },
      {
        request_id: request,
        cause: randomUUID(),
        actor: { type: 'system', id: 'content:escalation', name: null },
      },
    ]);
    await publish(...entries);
    const res = await eventually(
      () => all(`request_id=${request}`),
      (r) => r.body?.results?.length === 2,
      5_000,
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([entries[1], entries[0]]);
    expect(Object.keys(res.body.results[0])).toEqual(Object.keys(entries[1]));
    expect(res.body.results.map((e: AuditEntry) => entryHash(e))).toEqual([entries[1].hash, entries[0].hash]);
  });

  it('orders newest first by at, then app, then seq, and pages by cursor without gaps or repeats', async () => {
    const request = `req-${randomUUID()}`;
    const at = (second: number) => `2021-03-04T05:06:${String(second).padStart(2, '0')}.000Z`;
    const seqA = freshSeq();
    const content = sealed('content', seqA, [
      { at: at(1), request_id: request },
      { at: at(3), request_id: request },
      { at: at(3), request_id: request },
    ]);
    const payment = sealed('payment', freshSeq(), [
      { at: at(3), request_id: request },
      { at: at(2), request_id: request },
    ]);
    await publish(...content, ...payment);
    const expected = [payment[0], content[2], content[1], payment[1], content[0]].map((e) => e.id);
    await eventually(
      () => all(`request_id=${request}`),
      (r) => r.body?.results?.length === 5,
      5_000,
    );
    const seen: string[] = [];
    let page = await all(`request_id=${request}&page_size=2`);
    expect(page.body.previous).toBeNull();
    for (;;) {
      seen.push(...page.body.results.map((e: AuditEntry) => e.id));
      if (!page.body.next) break;
      page = await follow(page.body.next, auditor);
    }
    expect(seen).toEqual(expected);
  });

  it('filters by app, resource, actor, action, request and from..to (inclusive..exclusive)', async () => {
    const request = `req-${randomUUID()}`;
    const actor = randomUUID();
    const resource = randomUUID();
    const [a, b, c, d] = [
      ...sealed('commercial', freshSeq(), [
        {
          at: '2022-01-01T00:00:00.000Z',
          request_id: request,
          actor: { type: 'user', id: actor, name: 'Ana' },
        },
        { at: '2022-01-01T00:00:01.000Z', request_id: request, resource: { type: 'client', id: resource } },
      ]),
      ...sealed('acl', freshSeq(), [
        {
          at: '2022-01-01T00:00:02.000Z',
          request_id: request,
          action: 'user.login.failed',
          actor: { type: 'user', id: actor, name: 'Ana' },
          resource: { type: 'user', id: null },
        },
        { at: '2022-01-01T00:00:03.000Z', request_id: request, action: 'user.updated' },
      ]),
    ];
    await publish(a, b, c, d);
    await eventually(
      () => all(`request_id=${request}`),
      (r) => r.body?.results?.length === 4,
      5_000,
    );
    const ids = async (query: string) =>
      (await all(`request_id=${request}&${query}`)).body.results.map((e: AuditEntry) => e.id);
    expect(await ids('app=acl')).toEqual([d.id, c.id]);
    expect(await ids(`actor_id=${actor}`)).toEqual([c.id, a.id]);
    expect(await ids(`resource_type=client&resource_id=${resource}`)).toEqual([b.id]);
    expect(await ids('resource_type=user')).toEqual([c.id]);
    expect(await ids('action=user.login.failed')).toEqual([c.id]);
    expect(await ids('from=2022-01-01T00:00:01.000Z&to=2022-01-01T00:00:03.000Z')).toEqual([c.id, b.id]);
    expect(await ids('from=2022-01-01T01:00:01%2B01:00')).toEqual([d.id, c.id, b.id]);
    expect(await ids(`app=acl&actor_id=${actor}`)).toEqual([c.id]);
    expect(await ids('app=content')).toEqual([]);
  });

  it('keeps one row per entry when a message is redelivered or published again, and the first of two different entries at one seq', async () => {
    const seq = freshSeq();
    const [entry] = sealed('inventory', seq, [{ request_id: `req-${randomUUID()}` }]);
    const [impostor] = sealed('inventory', seq, [
      { request_id: entry.request_id, action: 'booking.deleted' },
    ]);
    await publish(entry);
    await eventually(
      () => all(`request_id=${entry.request_id}`),
      (r) => r.body?.results?.length === 1,
      5_000,
    );
    // A new message id: JetStream's de-duplication does not hide them; the copy must.
    const js = jetstream(rpc.nc);
    await js.publish(auditSubject('inventory'), JSON.stringify(entry), { msgID: randomUUID() });
    await js.publish(auditSubject('inventory'), JSON.stringify(impostor), { msgID: randomUUID() });
    const [marker] = sealed('inventory', seq + 1, [{ request_id: entry.request_id }]);
    await publish(marker);
    const res = await eventually(
      () => all(`request_id=${entry.request_id}`),
      (r) => r.body?.results?.length === 2,
      5_000,
    );
    expect(res.body.results.map((e: AuditEntry) => e.seq)).toEqual([seq + 1, seq]);
    expect(res.body.results[1]).toEqual(entry);
    const rows = await aclDb(
      `SELECT count(*)::int AS n FROM audit_all WHERE app = 'inventory' AND seq = $1`,
      [seq],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('stores a burst (entries a pull brings together) once each, with a redelivery, an impostor and a malformed message among them', async () => {
    const request = `req-${randomUUID()}`;
    const seq = freshSeq();
    const entries = sealed(
      'assignment',
      seq,
      Array.from({ length: 450 }, () => ({ request_id: request })),
    );
    const [impostor] = sealed('assignment', seq + 7, [{ request_id: request, action: 'task.deleted' }]);
    const js = jetstream(rpc.nc);
    await publish(entries[0]);
    // All at once, without waiting for each acknowledgement: the consumer's pulls bring them in
    // batches, stored together.
    await Promise.all([
      ...entries
        .slice(1)
        .map((entry) =>
          js.publish(auditSubject('assignment'), JSON.stringify(entry), { msgID: `assignment:${entry.seq}` }),
        ),
      js.publish(auditSubject('assignment'), JSON.stringify(entries[3]), { msgID: randomUUID() }),
      js.publish(auditSubject('assignment'), JSON.stringify(impostor), { msgID: randomUUID() }),
      js.publish(auditSubject('assignment'), 'not json'),
    ]);
    const counted = () =>
      aclDb(`SELECT count(*)::int AS n FROM audit_all WHERE request_id = $1`, [request]) as Promise<
        { n: number }[]
      >;
    await eventually(counted, (rows) => rows[0].n === entries.length, {
      orThrow: 'the burst was not copied within 10 s',
      timeoutMs: 10_000,
    });
    const rows = await aclDb(
      `SELECT seq::int AS seq, hash FROM audit_all WHERE request_id = $1 ORDER BY seq`,
      [request],
    );
    expect(rows).toEqual(entries.map((entry) => ({ seq: entry.seq, hash: entry.hash })));
  });

  it('stores runs as the apps publish them (a JSON array a message), a longer resend once each, a malformed entry dropped', async () => {
    const request = `req-${randomUUID()}`;
    const seq = freshSeq();
    const entries = sealed(
      'commercial',
      seq,
      Array.from({ length: 6 }, () => ({ request_id: request })),
    );
    await publish(); // waits for the stream
    const js = jetstream(rpc.nc);
    const run = (from: number, to: number, extra: unknown[] = []) =>
      js.publish(auditSubject('commercial'), JSON.stringify([...entries.slice(from, to), ...extra]), {
        msgID: auditMessageId('commercial', entries[from].seq, entries[to - 1].seq),
      });
    await run(0, 3);
    // After a crash between the stream's ack and the resume point's move: the same entries again,
    // in a longer run under another message id, which the copy must absorb.
    await run(0, 5, [{ ...entries[5], seq: -1 }]);
    await run(5, 6);
    const rows = await eventually(
      () =>
        aclDb(`SELECT seq::int AS seq, hash FROM audit_all WHERE request_id = $1 ORDER BY seq`, [request]),
      (found) => found.length === entries.length,
      { orThrow: 'the runs were not copied within 5 s', timeoutMs: 5_000 },
    );
    expect(rows).toEqual(entries.map((entry) => ({ seq: entry.seq, hash: entry.hash })));
    const res = await all(`request_id=${request}`);
    expect(res.body.results).toEqual([...entries].reverse());
  });

  it('drops a message that is not a sealed entry of its subject’s app and goes on with the next', async () => {
    const request = `req-${randomUUID()}`;
    const [good] = sealed('documents', freshSeq(), [{ request_id: request }]);
    const [misfiled] = sealed('payment', freshSeq(), [{ request_id: request }]);
    await publish(
      { subject: auditSubject('documents'), raw: 'not json' },
      { subject: auditSubject('documents'), raw: JSON.stringify({ ...good, seq: -1 }) },
      { subject: auditSubject('documents'), raw: JSON.stringify(misfiled) },
      good,
    );
    const res = await eventually(
      () => all(`request_id=${request}`),
      (r) => r.body?.results?.length >= 1,
      5_000,
    );
    expect(res.body.results).toEqual([good]);
  });

  it.each([
    ['app=gateway', ['query', 'app']],
    ['app=nope', ['query', 'app']],
    ['from=yesterday', ['query', 'from']],
    ['to=2026-01-01', ['query', 'to']],
    ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', ['query', 'to']],
    ['from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', ['query', 'to']],
    ['page_size=0', ['query', 'page_size']],
    ['cursor=forged', ['query', 'cursor']],
    [`actor_id=${'x'.repeat(201)}`, ['query', 'actor_id']],
    ['unknown=1', ['query', 'unknown']],
    ['resource_id=a%00b', ['query', 'resource_id']],
    ['action=%ED%A0%80', ['query', 'action']],
  ])('answers ?%s with 422 at %j', async (query, loc) => {
    const res = await all(query);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc })]);
  });

  it('reads one resource’s entries, or a rare type’s, without reading the rest of the copy', async () => {
    // 3,000 entries of 500 resources in a transaction rolled back (`plan-3` has 6), each of type
    // `thing` but every 500th, of type `plan-rare` (6), then the plans of the list's query with
    // resource filters, newest first: the copy's rows each reads, returned or filtered out.
    const db = new Client({ connectionString: e2eStack().databases.acl });
    await db.connect();
    const read: Record<string, number> = {};
    try {
      await db.query('BEGIN');
      await db.query(
        `INSERT INTO audit_all (app, seq, id, at, action, actor_type, actor_id, resource_type, resource_id,
                                changes, prev_hash, hash)
         SELECT 'plan', g, gen_random_uuid(), now() - g * interval '1 s', 'thing.updated', 'system', 'plan',
                CASE WHEN g % 500 = 0 THEN 'plan-rare' ELSE 'thing' END, 'plan-' || (g % 500), '{}',
                md5(g::text), md5(g::text)
           FROM generate_series(1, 3000) AS g`,
      );
      await db.query('ANALYZE audit_all');
      for (const [filters, params] of [
        ['e.resource_id = $1', ['plan-3']],
        ['e.resource_type = $2 AND e.resource_id = $1', ['plan-3', 'thing']],
        ['e.resource_type = $1', ['plan-rare']],
      ] as const) {
        const plan = await analyzedPlan(
          db,
          `SELECT * FROM audit_all e WHERE ${filters} ORDER BY e.at DESC, e.app DESC, e.seq DESC LIMIT 21`,
          [...params],
        );
        read[filters] = rowsRead(plan, 'audit_all');
      }
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await db.end();
    }
    expect(read).toEqual({
      'e.resource_id = $1': 6,
      'e.resource_type = $2 AND e.resource_id = $1': 6,
      'e.resource_type = $1': 6,
    });
  });

  it('needs a token (401) and audit:read (403); AUDITOR reads it and nothing else', async () => {
    expect((await acl('/api/v1/audit/all')).status).toBe(401);
    expect((await all('', tokenWith(['users:admin']))).status).toBe(403);
    expect((await all('', tokenWith(['audit:read']))).status).toBe(200);
    expect((await all('', auditor)).status).toBe(200);
    expect((await acl('/api/v1/users', { token: auditor })).status).toBe(403);
    const me = await acl('/api/v1/users/me', { token: auditor });
    expect(me.body.roles).toEqual(['AUDITOR']);
    const claims = JSON.parse(Buffer.from(auditor.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.permissions).toEqual(['audit:read']);
  });
});
