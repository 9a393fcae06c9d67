/**
 * Reading the audit trail (CONTRACT §8.2, §8.3) in an app booted in-process: the list and its
 * filters, verify (every kind of tampering, made through a direct SQL connection), the NDJSON
 * export and the checkpoint job.
 *
 * Two collaborators are stood in for, and the tests say so: the sealer (the chains here are
 * INSERTed already sealed, each hash computed with `entryHash`) and acl's checkpoint signer
 * (a NATS responder on a server of this file's own, signing with a test RSA key through `jose`,
 * whose public key a stand-in `audit-keys.json` serves).
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CompactSign } from 'jose';
import { Client } from 'pg';
import { AclSubjects } from '@media/contracts';
import { INDEX_SCANS_ONLY } from '@media/kernel';
import {
  analyzedPlan,
  planNodes,
  readsOf,
  call,
  chainEntries,
  createDatabases,
  databaseUrl,
  dropDatabases,
  eventually,
  freePort,
  generateTestKeys,
  insertSealedEntries,
  mintToken,
  publicJwk,
  rowsRead,
  startJwks,
  startNats,
  type PlanNode,
  type PrivateNats,
  type TestKeys,
  type UnchainedEntry,
} from '@media/testing';
import { AuditCheckpoints, AuditReader, createApp, VERIFY_HEARTBEAT_MS } from '../src';
import { UNPUBLISHED_ENTRIES } from '../src/audit/publisher';
import { AuditSealer, SEAL_ENTRIES, UNSEALED_ENTRIES } from '../src/audit/sealer';
import { entryHash, GENESIS_HASH, type AuditCheckpoint, type AuditEntry } from '@media/core';
import { fixtureApp } from './fixture/fixture.app';

const APP = 'fixture-platform';
const T0 = Date.parse('2026-11-27T09:00:00.000Z');

/** A stand-in for acl's `audit-keys.json`: the test signing keys' public halves; can go down. */
class StandInAuditKeys {
  keys: TestKeys[] = [];
  up = true;
  url = '';
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (!this.up) return void req.socket.destroy();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: this.keys.map(publicJwk) }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}/acl/.well-known/audit-keys.json`;
  }

  stop(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

/** A compact JWS (RS256, `kid`) of the checkpoint, as acl's signer makes it. */
async function sign(keys: TestKeys, checkpoint: AuditCheckpoint): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(checkpoint)))
    .setProtectedHeader({ alg: 'RS256', kid: keys.kid })
    .sign(createPrivateKey(keys.privateKeyPem));
}

/** A stand-in for acl's 'acl.audit.sign-checkpoint' responder, counting what it signed. */
async function standInSigner(
  nc: NatsConnection,
  keys: TestKeys,
): Promise<{ signed: AuditCheckpoint[]; stop: () => Promise<void> }> {
  const signed: AuditCheckpoint[] = [];
  const sub = nc.subscribe(AclSubjects.auditSignCheckpoint, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { data: AuditCheckpoint } }>();
      const checkpoint = packet.data.data;
      signed.push(checkpoint);
      void sign(keys, checkpoint).then((jws) =>
        msg.respond(JSON.stringify({ id: packet.id, response: { kid: keys.kid, jws }, isDisposed: true })),
      );
    },
  });
  // A subscription (and its end) is the server's once a round trip after it has come back:
  // otherwise the app's next request can reach the server first and find no signer, or one that
  // a test has already stopped.
  await nc.flush();
  return {
    signed,
    stop: async () => {
      sub.unsubscribe();
      await nc.flush();
    },
  };
}

/** A chain of `count` entries from seq 1, sealed as the sealer would (`chainEntries`). */
function chainOf(count: number, shape: (seq: number) => Partial<UnchainedEntry> = () => ({})): AuditEntry[] {
  return chainEntries(
    Array.from({ length: count }, (_, i) => {
      const seq = i + 1;
      return {
        id: randomUUID(),
        at: new Date(T0 + seq * 60_000).toISOString(),
        app: APP,
        action: 'thing.updated',
        actor: { type: 'user', id: 'a0000000-0000-4000-8000-000000000001', name: 'Edna Editor' },
        resource: { type: 'thing', id: `thing-${seq}` },
        request_id: `req-${seq}`,
        cause: null,
        changes: { name: [`old ${seq}`, `new ${seq}`] },
        ...shape(seq),
      };
    }),
  );
}

/** A direct connection to the app's database, past the append-only rules (replica role: no triggers). */
async function direct<T>(url: string, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('SET session_replication_role = replica');
    return await work(db);
  } finally {
    await db.end();
  }
}

/** A checkpoint of `entry` signed by `keys`, as the job would record it. */
async function insertCheckpoint(
  db: Client,
  keys: TestKeys,
  entry: AuditEntry,
  at = entry.at,
): Promise<string> {
  const jws = await sign(keys, { app: APP, seq: entry.seq, hash: entry.hash, at });
  await db.query('INSERT INTO audit_checkpoints (seq, hash, at, kid, jws) VALUES ($1, $2, $3, $4, $5)', [
    entry.seq,
    entry.hash,
    at,
    keys.kid,
    jws,
  ]);
  return jws;
}

async function reset(db: Client): Promise<void> {
  await db.query('TRUNCATE audit_entries, audit_checkpoints');
}

interface Booted {
  app: INestApplication;
  base: string;
}

async function boot(db: string, env: Record<string, string>): Promise<Booted> {
  const port = await freePort();
  const app = await createApp(
    fixtureApp,
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl(db),
      CURSOR_SECRET: 'a'.repeat(48),
      LOG_LEVEL: 'silent',
      // The job runs when a test says so (runOnce), not on its timer.
      AUDIT_CHECKPOINT_INTERVAL: '1h',
      NATS_REQUEST_TIMEOUT: '1s',
      EVENTS_CONSUMER_PREFIX: db.replace(/_/g, '-'),
      ...env,
    },
    { host: '127.0.0.1' },
  );
  return { app, base: `http://127.0.0.1:${port}/fixture` };
}

/** An export's lines, parsed (fetched directly: the shared `call` would parse NDJSON as one JSON). */
async function exported(
  base: string,
  token: string,
  query = '',
): Promise<{ status: number; type: string | null; lines: unknown[] }> {
  const res = await fetch(`${base}/api/v1/audit/export${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  const lines = res.status === 200 ? text.split('\n') : [JSON.parse(text)];
  if (res.status === 200) expect(lines.pop()).toBe('');
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    lines: lines.map((line) => (typeof line === 'string' ? JSON.parse(line) : line)),
  };
}

describe('audit trail reading (CONTRACT §8.2, §8.3), with sealed rows inserted directly and a stand-in acl signer', () => {
  const name = `e2e_${Date.now()}_${Math.random().toString(16).slice(2, 8)}_audit`;
  const url = databaseUrl(name);
  const tokenKeys = generateTestKeys();
  const signingKeys = generateTestKeys();
  const auditKeys = new StandInAuditKeys();
  let jwks: { url: string; close: () => void };
  let nats: PrivateNats;
  let nc: NatsConnection;
  let fixture: Booted;
  let reader: string;

  beforeAll(async () => {
    await createDatabases([name]);
    jwks = await startJwks(tokenKeys);
    await auditKeys.start();
    auditKeys.keys = [signingKeys];
    nats = await startNats();
    nc = await connect({ servers: nats.url });
    fixture = await boot(name, { JWT_JWKS_URL: jwks.url, AUDIT_KEYS_URL: auditKeys.url, NATS_URL: nats.url });
    // The entries here are inserted already sealed; the fixture's own sealer stops, so an entry
    // inserted unsealed stays so (the recording side's tests seal for real).
    await fixture.app.get(AuditSealer).onApplicationShutdown();
    reader = mintToken(tokenKeys, { permissions: ['audit:read'] });
  });

  afterAll(async () => {
    await fixture?.app.close();
    await nc?.close();
    await nats?.stop();
    auditKeys.stop();
    jwks?.close();
    await dropDatabases([name]);
  }, 60_000);

  describe('GET .../audit', () => {
    const chain = chainOf(6, (seq) => ({
      action: seq % 2 ? 'thing.updated' : 'thing.deleted',
      actor:
        seq <= 3
          ? { type: 'user', id: 'a0000000-0000-4000-8000-000000000001', name: 'Edna Editor' }
          : { type: 'system', id: 'fixture-platform:sweeper', name: null },
      resource: { type: seq === 6 ? 'gadget' : 'thing', id: seq === 6 ? 'thing-2' : `thing-${seq}` },
      request_id: seq === 6 ? null : `req-${seq}`,
      cause: seq === 5 ? 'c0000000-0000-4000-8000-000000000005' : null,
    }));
    const newestFirst = (...seqs: number[]) => seqs.map((seq) => chain[seq - 1]);

    beforeAll(async () => {
      await direct(url, async (db) => {
        await reset(db);
        await insertSealedEntries(db, chain);
        // Recorded, not yet sealed: never listed.
        await db.query(
          `INSERT INTO audit_entries (app, action, actor_type, actor_id, resource_type, resource_id)
           VALUES ($1, 'thing.created', 'user', 'u', 'thing', 'thing-1')`,
          [APP],
        );
      });
    });

    it('lists sealed entries newest first, each exactly the §8.1 object, in cursor pages', async () => {
      const first = await call(fixture.base, '/api/v1/audit?page_size=4', { token: reader });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        results: newestFirst(6, 5, 4, 3),
        next: expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:\d+\/fixture\/api\/v1\/audit\?page_size=4&cursor=[\w.-]+$/,
        ),
        previous: null,
      });
      const next = new URL(first.body.next);
      const second = await call(fixture.base, `/api/v1/audit${next.search}`, { token: reader });
      expect(second.body).toEqual({ results: newestFirst(2, 1), next: null, previous: expect.any(String) });
      const back = await call(fixture.base, `/api/v1/audit${new URL(second.body.previous).search}`, {
        token: reader,
      });
      expect(back.body).toEqual({
        results: newestFirst(6, 5, 4, 3),
        next: expect.any(String),
        previous: null,
      });
    });

    it.each([
      ['resource_id=thing-2', [6, 2]],
      ['resource_type=thing&resource_id=thing-2', [2]],
      ['resource_type=gadget', [6]],
      ['actor_id=fixture-platform:sweeper', [6, 5, 4]],
      ['actor_id=a0000000-0000-4000-8000-000000000001&action=thing.deleted', [2]],
      ['request_id=req-3', [3]],
      // from inclusive, to exclusive: entry n is at T0 + n minutes.
      ['from=2026-11-27T09:02:00Z&to=2026-11-27T09:05:00Z', [4, 3, 2]],
      ['from=2026-11-27T10:02:00%2B01:00', [6, 5, 4, 3, 2]],
      ['action=thing.created', []],
    ])('filters by %s', async (query, seqs) => {
      const res = await call(fixture.base, `/api/v1/audit?${query}`, { token: reader });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ results: newestFirst(...seqs), next: null, previous: null });
    });

    it('refuses bad filters with 422 at their place in the query', async () => {
      const res = await call(fixture.base, '/api/v1/audit?from=yesterday&to=2026-11-27&page_size=0', {
        token: reader,
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            loc: ['query', 'from'],
            msg: 'Input should be a valid ISO 8601 date-time with a time zone',
            type: 'datetime_parsing',
          },
          {
            loc: ['query', 'to'],
            msg: 'Input should be a valid ISO 8601 date-time with a time zone',
            type: 'datetime_parsing',
          },
          {
            loc: ['query', 'page_size'],
            msg: 'page_size must not be less than 1',
            type: 'greater_than_equal',
          },
        ],
      });
      const long = await call(fixture.base, `/api/v1/audit?resource_id=${'x'.repeat(256)}`, {
        token: reader,
      });
      expect(long.status).toBe(422);
      expect(long.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'resource_id'] })]);
    });

    it('is 403 without audit:read, 401 without a token, and open to `*`', async () => {
      const other = await call(fixture.base, '/api/v1/audit', {
        token: mintToken(tokenKeys, { permissions: ['lineup:read'] }),
      });
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ detail: expect.any(String), code: 'forbidden' });
      for (const path of ['/api/v1/audit/verify', '/api/v1/audit/export']) {
        const res = await call(fixture.base, path, { token: mintToken(tokenKeys, { permissions: [] }) });
        expect(res.status).toBe(403);
      }
      expect((await call(fixture.base, '/api/v1/audit')).status).toBe(401);
      const admin = await call(fixture.base, '/api/v1/audit', {
        token: mintToken(tokenKeys, { permissions: ['*'] }),
      });
      expect(admin.status).toBe(200);
    });
  });

  describe('GET .../audit/verify', () => {
    const chain = chainOf(10);
    const verify = () => call(fixture.base, '/api/v1/audit/verify', { token: reader });
    /**
     * The answer for a chain broken at `seq`: the walk stops there, having fed `entries` entries,
     * its head the last entry that held and its checkpoint the last one verified before.
     */
    const broken = (
      seq: number,
      reason: string,
      walked: { entries: number; head: number; checkpoint: number | null; headHash?: string },
    ) => ({
      valid: false,
      entries: walked.entries,
      head: {
        seq: walked.head,
        hash: walked.headHash ?? (walked.head ? chain[walked.head - 1].hash : GENESIS_HASH),
      },
      checkpoint:
        walked.checkpoint === null
          ? null
          : { seq: walked.checkpoint, at: chain[walked.checkpoint - 1].at, kid: signingKeys.kid },
      first_break: { seq, reason },
    });
    /** A forged entry for seq 6, linked to entry 5 and with its own hash right. */
    const forged = (() => {
      const unsealed = { ...chain[5], id: randomUUID(), seq: 6, prev_hash: chain[4].hash, changes: {} };
      return { ...unsealed, hash: entryHash(unsealed) };
    })();

    /** Ten entries, checkpoints (signed by the stand-in key) at 4 and 8. */
    async function seeded(tamper?: (db: Client) => Promise<unknown>): Promise<void> {
      await direct(url, async (db) => {
        await reset(db);
        await insertSealedEntries(db, chain);
        await insertCheckpoint(db, signingKeys, chain[3]);
        await insertCheckpoint(db, signingKeys, chain[7]);
        await tamper?.(db);
      });
    }

    it('answers 503 upstream_unavailable, never 500, while the audit keys cannot be fetched', async () => {
      await seeded();
      auditKeys.up = false;
      try {
        const res = await verify();
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
      } finally {
        auditKeys.up = true;
      }
    });

    it('finds an untouched chain valid, with its head and last checkpoint', async () => {
      await seeded();
      // The failed fetch above backs off for a second at most.
      const res = await eventually(verify, (answer) => answer.status !== 503, 5_000);
      expect(res.body).toEqual({
        valid: true,
        entries: 10,
        head: { seq: 10, hash: chain[9].hash },
        checkpoint: { seq: 8, at: chain[7].at, kid: signingKeys.kid },
        first_break: null,
      });
    });

    it("begins a long walk's answer at once and keeps it alive with spaces until its JSON", async () => {
      await seeded();
      const auditReader = fixture.app.get(AuditReader);
      // Every millisecond: the walk's first query alone outlasts that.
      auditReader.heartbeatMs = 1;
      try {
        const res = await fetch(`${fixture.base}/api/v1/audit/verify`, {
          headers: { authorization: `Bearer ${reader}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const text = await res.text();
        expect(text).toMatch(/^ +\{/);
        expect(JSON.parse(text)).toEqual({
          valid: true,
          entries: 10,
          head: { seq: 10, hash: chain[9].hash },
          checkpoint: { seq: 8, at: chain[7].at, kid: signingKeys.kid },
          first_break: null,
        });
      } finally {
        auditReader.heartbeatMs = VERIFY_HEARTBEAT_MS;
      }
    });

    it('answers an empty chain valid', async () => {
      await direct(url, reset);
      expect((await verify()).body).toEqual({
        valid: true,
        entries: 0,
        head: { seq: 0, hash: GENESIS_HASH },
        checkpoint: null,
        first_break: null,
      });
    });

    it.each<[string, (db: Client) => Promise<unknown>, number, string, Parameters<typeof broken>[2]]>([
      [
        'an edited field',
        (db) => db.query(`UPDATE audit_entries SET changes = '{"name":["old 5","forged"]}' WHERE seq = 5`),
        5,
        'hash_mismatch',
        { entries: 5, head: 4, checkpoint: 4 },
      ],
      [
        'an edited actor',
        (db) => db.query(`UPDATE audit_entries SET actor_id = 'someone' WHERE seq = 2`),
        2,
        'hash_mismatch',
        { entries: 2, head: 1, checkpoint: null },
      ],
      [
        'a deleted row',
        (db) => db.query('DELETE FROM audit_entries WHERE seq = 5'),
        5,
        'gap',
        { entries: 5, head: 4, checkpoint: 4 },
      ],
      [
        'a deleted tail a checkpoint vouches for',
        (db) => db.query('DELETE FROM audit_entries WHERE seq >= 8'),
        8,
        'gap',
        { entries: 7, head: 7, checkpoint: 4 },
      ],
      [
        'a row inserted in the middle (later seqs shifted, its own hash right)',
        async (db) => {
          await db.query('UPDATE audit_entries SET seq = seq + 100 WHERE seq > 5');
          await db.query('UPDATE audit_entries SET seq = seq - 99 WHERE seq > 100');
          await insertSealedEntries(db, [forged]);
        },
        7,
        'hash_mismatch',
        { entries: 7, head: 6, checkpoint: 4, headHash: forged.hash },
      ],
      [
        'a row appended after the head',
        (db) =>
          insertSealedEntries(db, [{ ...chain[9], id: randomUUID(), seq: 11, prev_hash: chain[9].hash }]),
        11,
        'hash_mismatch',
        { entries: 11, head: 10, checkpoint: 8 },
      ],
      [
        'two rows swapped',
        async (db) => {
          await db.query('UPDATE audit_entries SET seq = 1000 WHERE seq = 5');
          await db.query('UPDATE audit_entries SET seq = 5 WHERE seq = 6');
          await db.query('UPDATE audit_entries SET seq = 6 WHERE seq = 1000');
        },
        5,
        'hash_mismatch',
        { entries: 5, head: 4, checkpoint: 4 },
      ],
      [
        "a checkpoint's hash altered",
        (db) => db.query('UPDATE audit_checkpoints SET hash = $1 WHERE seq = 4', [chain[2].hash]),
        4,
        'checkpoint_mismatch',
        { entries: 4, head: 4, checkpoint: null },
      ],
      [
        'a checkpoint moved to another entry',
        (db) => db.query('UPDATE audit_checkpoints SET seq = 5 WHERE seq = 4'),
        5,
        'checkpoint_mismatch',
        { entries: 5, head: 5, checkpoint: null },
      ],
      [
        "a checkpoint's signature by another key under the same kid",
        async (db) => {
          const impostor = { ...generateTestKeys(), kid: signingKeys.kid };
          const jws = await sign(impostor, { app: APP, seq: 8, hash: chain[7].hash, at: chain[7].at });
          await db.query('UPDATE audit_checkpoints SET jws = $1 WHERE seq = 8', [jws]);
        },
        8,
        'signature_invalid',
        { entries: 8, head: 8, checkpoint: 4 },
      ],
      [
        "a checkpoint's time changed after signing",
        (db) => db.query(`UPDATE audit_checkpoints SET at = at + interval '1 second' WHERE seq = 4`),
        4,
        'signature_invalid',
        { entries: 4, head: 4, checkpoint: null },
      ],
      [
        'a checkpoint signed by a key acl never published',
        async (db) => {
          const stranger = generateTestKeys();
          const jws = await sign(stranger, { app: APP, seq: 4, hash: chain[3].hash, at: chain[3].at });
          await db.query('UPDATE audit_checkpoints SET jws = $1, kid = $2 WHERE seq = 4', [
            jws,
            stranger.kid,
          ]);
        },
        4,
        'signature_invalid',
        { entries: 4, head: 4, checkpoint: null },
      ],
      [
        'a garbled signature',
        (db) => db.query(`UPDATE audit_checkpoints SET jws = 'x.y.z' WHERE seq = 8`),
        8,
        'signature_invalid',
        { entries: 8, head: 8, checkpoint: 4 },
      ],
    ])('detects %s', async (_kind, tamper, seq, reason, walked) => {
      await seeded(tamper);
      const res = await verify();
      expect(res.status).toBe(200);
      expect(res.body).toEqual(broken(seq, reason, walked));
    });

    it('walks a chain whose beginning retention pruned from the checkpoint kept before it', async () => {
      await seeded((db) => db.query('DELETE FROM audit_entries WHERE seq <= 4'));
      expect((await verify()).body).toEqual({
        valid: true,
        entries: 6,
        head: { seq: 10, hash: chain[9].hash },
        checkpoint: { seq: 8, at: chain[7].at, kid: signingKeys.kid },
        first_break: null,
      });
    });

    it('calls a missing beginning with no checkpoint before it a gap at seq 1', async () => {
      await seeded((db) => db.query('DELETE FROM audit_entries WHERE seq <= 3'));
      expect((await verify()).body).toEqual({
        valid: false,
        entries: 0,
        head: { seq: 0, hash: GENESIS_HASH },
        checkpoint: null,
        first_break: { seq: 1, reason: 'gap' },
      });
    });

    it("checks a pruned chain's starting checkpoint's signature", async () => {
      await seeded(async (db) => {
        await db.query('DELETE FROM audit_entries WHERE seq <= 4');
        await db.query(`UPDATE audit_checkpoints SET jws = 'x.y.z' WHERE seq = 4`);
      });
      expect((await verify()).body).toEqual(
        broken(4, 'signature_invalid', { entries: 0, head: 4, checkpoint: null }),
      );
    });
  });

  describe('GET .../audit/export', () => {
    const chain = chainOf(10);
    const jws: Record<number, string> = {};
    const cp = (seq: number) => ({
      checkpoint: { app: APP, seq, hash: chain[seq - 1].hash, at: chain[seq - 1].at },
      jws: jws[seq],
    });
    const e = (seq: number) => chain[seq - 1];

    beforeAll(async () => {
      await direct(url, async (db) => {
        await reset(db);
        await insertSealedEntries(db, chain);
        jws[4] = await insertCheckpoint(db, signingKeys, chain[3]);
        jws[8] = await insertCheckpoint(db, signingKeys, chain[7]);
        await db.query(
          `INSERT INTO audit_entries (app, action, actor_type, actor_id, resource_type) VALUES ($1, 'x.y', 'user', 'u', 'thing')`,
          [APP],
        );
      });
    });

    it('streams NDJSON: every sealed entry exactly as listed, each checkpoint right after its entry', async () => {
      const res = await exported(fixture.base, reader);
      expect(res.status).toBe(200);
      expect(res.type).toBe('application/x-ndjson; charset=utf-8');
      expect(res.lines).toEqual([e(1), e(2), e(3), e(4), cp(4), e(5), e(6), e(7), e(8), cp(8), e(9), e(10)]);
    });

    it.each([
      ['?from_seq=5&to_seq=8', () => [cp(4), e(5), e(6), e(7), e(8), cp(8)]],
      ['?from_seq=2&to_seq=3', () => [e(2), e(3)]],
      ['?to_seq=4', () => [e(1), e(2), e(3), e(4), cp(4)]],
      ['?from_seq=9', () => [cp(8), e(9), e(10)]],
      ['?from_seq=7&to_seq=7', () => [e(7)]],
      ['?from_seq=11', () => []],
    ])(
      'exports the range %s (the checkpoint just before it first, as a starting point)',
      async (query, lines) => {
        const res = await exported(fixture.base, reader, query);
        expect(res.status).toBe(200);
        expect(res.lines).toEqual(lines());
      },
    );

    it('refuses bad ranges with 422 at their place in the query', async () => {
      expect(await exported(fixture.base, reader, '?from_seq=5&to_seq=4')).toEqual({
        status: 422,
        type: expect.stringContaining('application/json'),
        lines: [
          {
            detail: [
              { loc: ['query', 'to_seq'], msg: 'to_seq must not be below from_seq', type: 'value_error' },
            ],
          },
        ],
      });
      const res = await exported(fixture.base, reader, '?from_seq=0&to_seq=abc');
      expect(res.status).toBe(422);
      expect((res.lines[0] as { detail: { loc: string[] }[] }).detail.map((i) => i.loc)).toEqual([
        ['query', 'from_seq'],
        ['query', 'to_seq'],
      ]);
    });
  });

  describe('the checkpoint job', () => {
    const chain = chainOf(12);
    const checkpoints = () =>
      direct(
        url,
        async (db) => (await db.query('SELECT seq, hash, kid FROM audit_checkpoints ORDER BY seq')).rows,
      );

    beforeEach(() => direct(url, reset));

    it('asks acl to sign the head when entries were sealed since the last checkpoint, and only then', async () => {
      const signer = await standInSigner(nc, signingKeys);
      try {
        const job = fixture.app.get(AuditCheckpoints);
        expect(await job.runOnce()).toEqual({ skipped: 'no_new_entries' });
        await direct(url, (db) => insertSealedEntries(db, chain.slice(0, 5)));
        const round = await job.runOnce();
        expect(round).toEqual({
          recorded: { app: APP, seq: 5, hash: chain[4].hash, at: expect.any(String), kid: signingKeys.kid },
        });
        expect(signer.signed).toEqual([{ app: APP, seq: 5, hash: chain[4].hash, at: expect.any(String) }]);
        expect(await job.runOnce()).toEqual({ skipped: 'no_new_entries' });
        expect(signer.signed).toHaveLength(1);
        expect(await checkpoints()).toEqual([{ seq: '5', hash: chain[4].hash, kid: signingKeys.kid }]);
        // What it recorded verifies: the hash against the chain, the signature against the keys.
        const verified = await call(fixture.base, '/api/v1/audit/verify', { token: reader });
        expect(verified.body).toEqual({
          valid: true,
          entries: 5,
          head: { seq: 5, hash: chain[4].hash },
          checkpoint: { seq: 5, at: signer.signed[0].at, kid: signingKeys.kid },
          first_break: null,
        });
      } finally {
        await signer.stop();
      }
    });

    it('skips a round while acl does not answer, and checkpoints at the next one', async () => {
      const job = fixture.app.get(AuditCheckpoints);
      await direct(url, (db) => insertSealedEntries(db, chain.slice(0, 3)));
      expect(await job.runOnce()).toEqual({ skipped: 'acl_unavailable' });
      expect(await checkpoints()).toEqual([]);
      const signer = await standInSigner(nc, signingKeys);
      try {
        expect(await job.runOnce()).toEqual({ recorded: expect.objectContaining({ seq: 3 }) });
      } finally {
        await signer.stop();
      }
    });

    it("records no signature that acl's audit keys do not verify (another acl on the bus), and asks again next round", async () => {
      const stranger = await standInSigner(nc, generateTestKeys());
      const job = fixture.app.get(AuditCheckpoints);
      try {
        await direct(url, (db) => insertSealedEntries(db, chain.slice(0, 4)));
        expect(await job.runOnce()).toEqual({ skipped: 'signature_invalid' });
        expect(stranger.signed).toHaveLength(1);
        expect(await checkpoints()).toEqual([]);
      } finally {
        await stranger.stop();
      }
      const signer = await standInSigner(nc, signingKeys);
      try {
        expect(await job.runOnce()).toEqual({
          recorded: expect.objectContaining({ seq: 4, kid: signingKeys.kid }),
        });
      } finally {
        await signer.stop();
      }
    });

    it('with two replicas, signs once per round', async () => {
      const second = await boot(name, {
        JWT_JWKS_URL: jwks.url,
        AUDIT_KEYS_URL: auditKeys.url,
        NATS_URL: nats.url,
      });
      const signer = await standInSigner(nc, signingKeys);
      try {
        const replicas = [fixture.app.get(AuditCheckpoints), second.app.get(AuditCheckpoints)];
        await direct(url, (db) => insertSealedEntries(db, chain.slice(0, 6)));
        const first = await Promise.all(replicas.map((job) => job.runOnce()));
        await direct(url, (db) => insertSealedEntries(db, chain.slice(6, 12)));
        const next = await Promise.all(replicas.map((job) => job.runOnce()));
        // Per round one replica signs; the other is skipped (the lock) or finds nothing new.
        for (const round of [first, next])
          expect(round.filter((r) => r !== undefined && 'recorded' in r)).toHaveLength(1);
        expect(signer.signed.map((c) => c.seq)).toEqual([6, 12]);
        expect((await checkpoints()).map((c) => c.seq)).toEqual(['6', '12']);
      } finally {
        await signer.stop();
        await second.app.close();
      }
    });
  });
  /** The audit_entries rows a plan node and its children read: returned or filtered out. */
  const entriesRead = (plan: PlanNode) => rowsRead(plan, 'audit_entries');

  /**
   * The plan of `sql` (with `params`) over 3,005 sealed entries of 500 resources (`thing-0` …
   * `thing-499`; `thing-3` has 7), each of type `thing` but every 500th, of type `rare` (6),
   * inserted in a transaction rolled back after.
   */
  const planOver3005 = (sql: string, params: unknown[]) =>
    direct(url, async (db) => {
      await db.query('BEGIN');
      await db.query(
        `INSERT INTO audit_entries (seq, app, action, actor_type, actor_id, resource_type, resource_id, prev_hash, hash)
         SELECT g, $1, 'thing.updated', 'system', $1, CASE WHEN g % 500 = 0 THEN 'rare' ELSE 'thing' END,
                'thing-' || (g % 500), md5(g::text), md5(g::text)
           FROM generate_series(1, 3005) AS g`,
        [APP],
      );
      await db.query('ANALYZE audit_entries');
      const plan = await analyzedPlan(db, sql, params);
      await db.query('ROLLBACK');
      return plan;
    });

  describe('the reading indexes', () => {
    beforeEach(() => direct(url, reset));

    // The list's query with resource filters, in the shape the reader sends it (newest first, a
    // page of 20 and one more).
    const byResource = (filters: string) =>
      `SELECT * FROM audit_entries e WHERE e.seq IS NOT NULL AND e.hash IS NOT NULL AND ${filters}
        ORDER BY e.seq DESC LIMIT 21`;

    it('reads a page of one resource’s entries, or of a rare type’s, without reading the others', async () => {
      for (const [filters, params, read] of [
        [`e.resource_id = $1`, ['thing-3'], 7],
        [`e.resource_type = $2 AND e.resource_id = $1`, ['thing-3', 'thing'], 7],
        [`e.resource_type = $1`, ['rare'], 6],
      ] as const) {
        const plan = await planOver3005(byResource(filters), [...params]);
        expect({ filters, read: entriesRead(plan) }).toEqual({ filters, read });
      }
    });
  });

  describe("the sealer's plans", () => {
    beforeEach(() => direct(url, reset));

    it('reads the unsealed entries and seals them through indexes walked in order, whatever the estimates', async () => {
      await direct(url, async (db) => {
        // In a transaction rolled back: 3,000 entries recorded and 2,900 of them sealed, and
        // random reads priced at ten times the default, so that the estimates favour reading
        // the table itself.
        await db.query('BEGIN');
        await db.query(
          `INSERT INTO audit_entries (app, action, actor_type, actor_id, resource_type, resource_id)
           SELECT $1, 'thing.updated', 'system', $1, 'thing', 'thing-' || g FROM generate_series(1, 3000) AS g`,
          [APP],
        );
        await db.query(
          `UPDATE audit_entries SET seq = n, prev_hash = md5(n::text), hash = md5(n::text)
             FROM (SELECT id, row_number() OVER (ORDER BY recorded) AS n FROM audit_entries) AS numbered
            WHERE audit_entries.id = numbered.id AND n <= 2900`,
        );
        await db.query('ANALYZE audit_entries');
        await db.query(`SET LOCAL random_page_cost = 40`);
        const unpinned = await analyzedPlan(db, UNSEALED_ENTRIES, [500]);
        expect(readsOf(unpinned, 'audit_entries')).not.toEqual([
          'Index Scan using audit_entries_unsealed_idx',
        ]);

        await db.query(`SELECT ${INDEX_SCANS_ONLY}`);
        const read = await analyzedPlan(db, UNSEALED_ENTRIES, [500]);
        expect(readsOf(read, 'audit_entries')).toEqual(['Index Scan using audit_entries_unsealed_idx']);
        expect(planNodes(read).map((node) => node['Node Type'])).not.toContain('Sort');
        expect(read['Actual Rows']).toBe(100);

        const { rows } = await db.query<{ id: string }>(UNSEALED_ENTRIES, [500]);
        const seqs = rows.map((_, i) => 2901 + i);
        const sealed = await analyzedPlan(db, SEAL_ENTRIES, [
          rows.map((row) => row.id),
          seqs,
          seqs.map((n) => `prev-${n}`),
          seqs.map((n) => `hash-${n}`),
        ]);
        expect(readsOf(sealed, 'audit_entries')).toEqual([
          'ModifyTable',
          'Index Scan using audit_entries_pkey where (id = s.id)',
        ]);
        await db.query('ROLLBACK');
      });
    });
  });

  describe('the publisher', () => {
    beforeEach(() => direct(url, reset));

    it('reads what follows its resume point, not the chain from its first entry', async () => {
      // In a transaction rolled back, which the fixture's own publisher never sees: 3,000 sealed
      // entries the stream already has (the resume point, 3,000), and 5 it does not.
      const plan = await planOver3005(UNPUBLISHED_ENTRIES, [3000, 200]);
      expect(entriesRead(plan)).toBe(5);
    });
  });
});
