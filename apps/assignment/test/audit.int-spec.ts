/**
 * The audit trail of assignment (CONTRACT §8.1, §8.2) against its real database: a create, a
 * claim and a delete each leave one sealed entry with their field changes (a text over 1 KiB as
 * its SHA-256); a refused claim leaves none, nor does a write whose transaction rolled back; a
 * bulk claim leaves one per claimed task; the escalation job names itself; 20 concurrent claims
 * leave a chain without fork or gap; the app's own database user cannot UPDATE, DELETE or
 * TRUNCATE audit rows; every sealed entry reaches the AUDIT stream, also those sealed while NATS
 * was down; retention prunes a prefix and the rest still walks from the kept checkpoint, and even
 * a pruning transaction may delete nothing but a prefix ending at a kept checkpoint (the
 * checkpoints are inserted by the test, standing in for the checkpoint job).
 */
import { createHash, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { AUDIT_STREAM } from '@media/contracts';
import { auditEntryOf, type AuditEntry, type AuditEntryRow } from '@media/core';
import { AuditRetention } from '@media/platform';
import {
  call,
  eventually,
  queryDatabase,
  recordedEntries,
  sealedEntries,
  startNats,
  walkStoredChain,
} from '@media/testing';
import { DataSource } from 'typeorm';
import { EscalatorService } from '../src/escalation/escalator.service';
import { FakeAcl, Harness, type Instance } from './in-process';

const harness = new Harness();
let instance: Instance;
let acl: FakeAcl;
const assignerId = randomUUID();

beforeAll(async () => {
  await harness.start();
  instance = await harness.boot({ AUDIT_RETENTION: '1h' });
  acl = new FakeAcl(harness.nats.url);
  await acl.start();
}, 60_000);

afterAll(async () => {
  await acl?.stop();
  await harness.stop();
});

const assigner = () => harness.token(assignerId, ['tasks:assign', 'tasks:read']);

async function createTask(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await call<any>(instance.base, '/api/v1/tasks', {
    token: assigner(),
    json: { workflow_node_code: 'audit', node_preview_name: 'Audit me', ...fields },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('entries of changes', () => {
  it('records a create, a claim and a delete with their field changes, actor and request id', async () => {
    const id = await createTask({ priority: 'HIGH' });
    const user = acl.addUser(['tasks:claim']);
    const claimed = await call<any>(instance.base, `/api/v1/tasks/${id}/claim`, {
      token: harness.token(user.id, ['tasks:claim']),
      json: {},
      headers: { 'x-request-id': 'audit-claim-1' },
    });
    expect(claimed.status).toBe(200);
    const removed = await call<any>(instance.base, `/api/v1/tasks/${id}`, {
      token: assigner(),
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);

    const [created, claim, deleted] = await sealedEntries(harness.db, { type: 'task', id }, 3);
    expect(created).toMatchObject({
      app: 'assignment',
      action: 'task.created',
      actor: { type: 'user', id: assignerId },
      resource: { type: 'task', id },
    });
    expect(created.changes.priority).toEqual([null, 'HIGH']);
    expect(created.changes.status).toEqual([null, 'OPEN']);
    expect(created.changes).not.toHaveProperty('updated_at');

    expect(claim).toMatchObject({
      action: 'task.claimed',
      actor: { type: 'user', id: user.id },
      request_id: 'audit-claim-1',
      cause: null,
    });
    expect(claim.changes.status).toEqual(['OPEN', 'CLAIMED']);
    expect(claim.changes.assigned_to).toEqual([null, user.id]);
    expect(claim.changes).not.toHaveProperty('priority');

    expect(deleted).toMatchObject({ action: 'task.deleted', actor: { type: 'user', id: assignerId } });
    expect(Object.keys(deleted.changes)).toEqual(['deleted_at']);
    expect(deleted.changes.deleted_at[0]).toBeNull();
    expect(deleted.seq).toBeGreaterThan(claim.seq);
    expect(claim.seq).toBeGreaterThan(created.seq);
  });

  it('records a text over 1 KiB as its SHA-256', async () => {
    const long = 'é'.repeat(600);
    const id = await createTask({ node_instructions: long });
    const [created] = await sealedEntries(harness.db, { type: 'task', id }, 1);
    const digest = createHash('sha256').update(long, 'utf8').digest('hex');
    expect(created.changes.node_instructions).toEqual([null, `sha256:${digest}`]);
    expect(created.changes.node_preview_name).toEqual([null, 'Audit me']);
  });

  it('records an update as the columns it changed only: to and from null, a long text as its SHA-256, none for an ignored column alone', async () => {
    const id = await createTask({ node_instructions: 'short' });
    await sealedEntries(harness.db, { type: 'task', id }, 1);
    // An ignored column alone (updated_at) is no change: no entry.
    await queryDatabase(
      harness.db,
      `UPDATE tasks SET updated_at = now() + interval '1 minute' WHERE id = $1`,
      [id],
    );
    expect(await recordedEntries(harness.db, id)).toBe(1);
    const long = 'x'.repeat(1_500);
    await queryDatabase(
      harness.db,
      `UPDATE tasks SET node_instructions = $2, due_at = '2030-01-02T03:04:05.678Z', entity_reference = NULL,
                        updated_at = now() + interval '2 minutes'
        WHERE id = $1`,
      [id, long],
    );
    await queryDatabase(harness.db, `UPDATE tasks SET due_at = NULL, escalation_level = 2 WHERE id = $1`, [
      id,
    ]);
    const [, changed, cleared] = await sealedEntries(harness.db, { type: 'task', id }, 3);
    const digest = createHash('sha256').update(long, 'utf8').digest('hex');
    // A timestamp is recorded in the session's time zone: compared as an instant.
    const due = Date.parse('2030-01-02T03:04:05.678Z');
    expect(changed.changes).toEqual({
      node_instructions: ['short', `sha256:${digest}`],
      due_at: [null, expect.any(String)],
    });
    expect(Date.parse(changed.changes.due_at[1] as string)).toBe(due);
    expect(cleared.changes).toEqual({ due_at: [expect.any(String), null], escalation_level: [0, 2] });
    expect(Date.parse(cleared.changes.due_at[0] as string)).toBe(due);
  });

  it('leaves no entry for a refused change', async () => {
    const id = await createTask({ required_permissions_snapshot: [{ code: 'users:admin' }] });
    await sealedEntries(harness.db, { type: 'task', id }, 1);
    const user = acl.addUser(['tasks:claim']);
    const refused = await call<any>(instance.base, `/api/v1/tasks/${id}/claim`, {
      token: harness.token(user.id, ['tasks:claim']),
      json: {},
    });
    expect(refused.status).toBe(403);
    const started = await call<any>(instance.base, `/api/v1/tasks/${id}/start`, {
      token: assigner(),
      json: {},
    });
    expect(started.status).toBe(409);
    expect(await recordedEntries(harness.db, id)).toBe(1);
  });

  it('leaves no entry for a change its transaction rolled back after the write', async () => {
    const id = await createTask();
    await sealedEntries(harness.db, { type: 'task', id }, 1);
    const dataSource = instance.app.get(DataSource);
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(`UPDATE tasks SET priority = 'URGENT' WHERE id = $1`, [id]);
        const [{ n }] = await manager.query(
          `SELECT count(*)::int AS n FROM audit_entries WHERE resource_id = $1`,
          [id],
        );
        expect(n).toBe(2); // recorded inside the transaction...
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await recordedEntries(harness.db, id)).toBe(1); // ...and gone with it
  });

  it('records one entry per task a bulk claim claimed, none for the refused ones', async () => {
    const user = acl.addUser(['tasks:claim']);
    const open = await createTask();
    const open2 = await createTask();
    const admins = await createTask({ required_permissions_snapshot: [{ code: 'users:admin' }] });
    const res = await call<any>(instance.base, '/api/v1/tasks/bulk', {
      token: harness.token(user.id, ['tasks:claim']),
      json: { action: 'claim', task_ids: [open, randomUUID(), admins, open2] },
    });
    expect(res.status).toBe(200);
    for (const id of [open, open2]) {
      const entries = await sealedEntries(harness.db, { type: 'task', id }, 2);
      expect(entries.map((e) => e.action)).toEqual(['task.created', 'task.claimed']);
    }
    expect(await recordedEntries(harness.db, admins)).toBe(1);
  });

  it('names the escalation job as the actor of the levels it raises', async () => {
    const due = new Date(Date.now() - 60_000).toISOString();
    const id = await createTask({ due_at: due });
    await instance.app.get(EscalatorService).run(new Date());
    const [, escalated] = await sealedEntries(harness.db, { type: 'task', id }, 2);
    expect(escalated).toMatchObject({
      action: 'task.escalated',
      actor: { type: 'system', id: 'assignment:escalation', name: null },
      request_id: null,
      changes: { escalation_level: [0, 1] },
    });
  });
});

describe('the chain', () => {
  it('has no fork and no gap after 20 concurrent claims', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => createTask()));
    const users = ids.map(() => acl.addUser(['tasks:claim']));
    const claim = (i: number) =>
      call<any>(instance.base, `/api/v1/tasks/${ids[i]}/claim`, {
        token: harness.token(users[i].id, ['tasks:claim']),
        json: {},
      });
    let answers = await Promise.all(ids.map((_, i) => claim(i)));
    // On a loaded machine a claim may be refused with 503 (in a CI run at load 20, 16 of the 20
    // waited out the pool's 5 s): it wrote nothing, and is sent again, as a client would.
    for (let round = 0; round < 5 && answers.some((a) => a.status === 503); round++)
      answers = await Promise.all(answers.map((a, i) => (a.status === 503 ? claim(i) : a)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    const walker = await walkStoredChain(harness.db);
    expect(walker.firstBreak).toBeNull();
    const [{ n, max }] = await queryDatabase<{ n: number; max: string }>(
      harness.db,
      `SELECT count(*)::int AS n, max(seq) AS max FROM audit_entries`,
    );
    expect(walker.entries).toBe(n);
    expect(Number(max)).toBe(n);
  });

  it("refuses the app's own UPDATE, DELETE and TRUNCATE of audit rows", async () => {
    const id = await createTask();
    const [entry] = await sealedEntries(harness.db, { type: 'task', id }, 1);
    const refused = (sql: string) =>
      queryDatabase(harness.db, sql, []).then(
        () => 'done',
        (error: Error) => error.message,
      );
    expect(
      await refused(`UPDATE audit_entries SET action = 'task.nothing' WHERE seq = ${entry.seq}`),
    ).toMatch(/append-only/);
    expect(await refused(`UPDATE audit_entries SET hash = 'x' WHERE seq = ${entry.seq}`)).toMatch(
      /append-only/,
    );
    expect(await refused(`DELETE FROM audit_entries WHERE seq = ${entry.seq}`)).toMatch(/append-only/);
    expect(await refused(`TRUNCATE audit_entries`)).toMatch(/append-only/);
    expect(await refused(`TRUNCATE audit_checkpoints`)).toMatch(/append-only/);
    expect((await walkStoredChain(harness.db)).firstBreak).toBeNull();
  });
});

/** An entry as the AUDIT stream has it: the id of the message that carried it, and that message's seqs. */
type Streamed = { entry: AuditEntry; msgId: string | undefined; seqs: number[] };

describe('publishing to the AUDIT stream', () => {
  /** Every entry of the stream with the id of the message (a run) that carried it, read one by one. */
  async function streamed(url: string): Promise<Map<number, Streamed>> {
    const nc = await connect({ servers: url });
    try {
      const jsm = await jetstreamManager(nc);
      const { state } = await jsm.streams.info(AUDIT_STREAM);
      const found = new Map<number, Streamed>();
      for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
        const message = await jsm.streams.getMessage(AUDIT_STREAM, { seq });
        if (!message) continue;
        const run = message.json<AuditEntry[]>();
        const carried = { msgId: message.header.get('Nats-Msg-Id'), seqs: run.map((e) => e.seq) };
        for (const entry of run) found.set(entry.seq, { entry, ...carried });
      }
      return found;
    } finally {
      await nc.close();
    }
  }

  const allEntries = async () =>
    (
      await queryDatabase<AuditEntryRow & Record<string, unknown>>(
        harness.db,
        `SELECT * FROM audit_entries ORDER BY seq`,
      )
    ).map((row) => auditEntryOf(row));

  it('publishes the sealed entries as runs of §8.1 objects, message id assignment:<first>-<last>', async () => {
    await createTask();
    await walkStoredChain(harness.db);
    const entries = await allEntries();
    const published = await eventually(
      () => streamed(harness.nats.url).catch(() => new Map<number, Streamed>()),
      (found) => entries.every((e) => found.has(e.seq)),
      { timeoutMs: 10_000 },
    );
    for (const entry of entries) {
      const { entry: streamedEntry, msgId, seqs } = published.get(entry.seq)!;
      expect(streamedEntry).toEqual(entry);
      // Its message is the run of consecutive entries its id names.
      const [, first, last] = /^assignment:(\d+)-(\d+)$/.exec(msgId ?? '')!.map(Number);
      expect(seqs).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    }
  });

  it('carries what sealing passes left waiting as one run: several entries in one message', async () => {
    // The publisher held off by holding its lock (one replica at a time) while three tasks are
    // created and sealed; its next pass finds all of them waiting.
    const lock = ['audit-publisher:assignment'];
    const holder = instance.app.get(DataSource).createQueryRunner();
    await holder.connect();
    const ids: string[] = [];
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, lock);
      for (let i = 0; i < 3; i++) ids.push(await createTask());
      for (const id of ids) await sealedEntries(harness.db, { type: 'task', id }, 1);
    } finally {
      await holder.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, lock);
      await holder.release();
    }
    const waiting = (await allEntries()).filter((e) => ids.includes(e.resource.id!)).map((e) => e.seq);
    expect(waiting).toHaveLength(3);
    const published = await eventually(
      () => streamed(harness.nats.url).catch(() => new Map<number, Streamed>()),
      (found) => waiting.every((seq) => found.has(seq)),
      { timeoutMs: 10_000, orThrow: 'the waiting entries on the AUDIT stream' },
    );
    expect(published.get(waiting[0])!.seqs).toEqual(expect.arrayContaining(waiting));
  });

  it('keeps sealing through a NATS outage and publishes what it missed once NATS is back', async () => {
    const port = Number(new URL(harness.nats.url).port);
    await harness.nats.stop();
    const ids = [await createTask(), await createTask()];
    // Sealing does not wait for NATS.
    for (const id of ids) await sealedEntries(harness.db, { type: 'task', id }, 1);
    harness.nats = await startNats({ port });
    const missed = (await allEntries()).filter((e) => ids.includes(e.resource.id!));
    const published = await eventually(
      () => streamed(harness.nats.url).catch(() => new Map<number, Streamed>()),
      (found) => missed.every((e) => found.has(e.seq)),
      { timeoutMs: 15_000, orThrow: 'the entries sealed during the outage on the AUDIT stream' },
    );
    for (const entry of missed) expect(published.get(entry.seq)?.entry).toEqual(entry);
  });
});

describe('AUDIT_RETENTION', () => {
  it('lets a pruning transaction delete only a prefix of the chain that ends at a kept checkpoint', async () => {
    await createTask();
    await walkStoredChain(harness.db);
    const dataSource = instance.app.get(DataSource);
    /**
     * `sql` run as the app in a pruning transaction, with checkpoints older than the retention at
     * seq 3 and 5 (stand-ins for the checkpoint job); always rolled back. What it deleted, or why
     * the database refused it.
     */
    const whilePruning = (sql: string) =>
      dataSource
        .transaction(async (manager) => {
          await manager.query(`SELECT set_config('audit.retention', '1 hour', true)`);
          await manager.query(
            `INSERT INTO audit_checkpoints (seq, hash, at, kid, jws)
             SELECT seq, hash, now() - interval '2 hours', 'k', 'stand-in' FROM audit_entries WHERE seq IN (3, 5)`,
          );
          const [, deleted]: [unknown, number] = await manager.query(sql);
          throw new Error(`deleted ${deleted}, rolled back`);
        })
        .catch((error: Error) => error.message);

    expect(await whilePruning('DELETE FROM audit_entries WHERE seq <= 3')).toBe('deleted 3, rolled back');
    expect(await whilePruning('DELETE FROM audit_entries WHERE seq <= 5')).toBe('deleted 5, rolled back');
    // A gap: the entries before it would stay.
    expect(await whilePruning('DELETE FROM audit_entries WHERE seq = 2')).toMatch(/append-only.*gap/);
    expect(await whilePruning('DELETE FROM audit_entries WHERE seq BETWEEN 4 AND 5')).toMatch(
      /append-only.*gap/,
    );
    // A prefix ending between checkpoints: no checkpoint would vouch for the first entry left.
    expect(await whilePruning('DELETE FROM audit_entries WHERE seq <= 4')).toMatch(
      /append-only.*no kept checkpoint at seq 4/,
    );
    // A checkpoint whose entries are still there.
    expect(await whilePruning('DELETE FROM audit_checkpoints WHERE seq = 3')).toMatch(/append-only/);
    expect((await walkStoredChain(harness.db)).firstBreak).toBeNull();
  });

  it('prunes the entries up to the newest checkpoint older than it; the rest walks from that checkpoint', async () => {
    await createTask();
    await walkStoredChain(harness.db);
    // Stand-ins for the checkpoint job: an old checkpoint at seq 3 and a newer one at seq 5
    // (older than the retention), and a recent one at the head.
    const at = (seq: number) =>
      queryDatabase<{ hash: string }>(harness.db, `SELECT hash FROM audit_entries WHERE seq = $1`, [
        seq,
      ]).then(([row]) => row.hash);
    const [{ head }] = await queryDatabase<{ head: string }>(
      harness.db,
      `SELECT max(seq) AS head FROM audit_entries`,
    );
    await queryDatabase(
      harness.db,
      `INSERT INTO audit_checkpoints (seq, hash, at, kid, jws) VALUES
         (3, $1, now() - interval '3 hours', 'k', 'stand-in'),
         (5, $2, now() - interval '2 hours', 'k', 'stand-in'),
         ($3, $4, now(), 'k', 'stand-in')`,
      [await at(3), await at(5), Number(head), await at(Number(head))],
    );

    const deleted = await instance.app.get(AuditRetention).prune();
    expect(deleted).toBe(5 + 1);
    const [{ first }] = await queryDatabase<{ first: string }>(
      harness.db,
      `SELECT min(seq) AS first FROM audit_entries`,
    );
    expect(Number(first)).toBe(6);
    const kept = await queryDatabase<{ seq: string }>(
      harness.db,
      `SELECT seq FROM audit_checkpoints ORDER BY seq`,
    );
    expect(kept.map((k) => Number(k.seq))).toEqual([5, Number(head)]);

    // Entries after the pruning go on from the head, and everything walks from checkpoint 5.
    await createTask();
    const walker = await walkStoredChain(harness.db);
    expect(walker.firstBreak).toBeNull();
    expect(walker.head.seq).toBe(Number(head) + 1);
    // Outside a pruning transaction, the rest cannot be deleted.
    await expect(queryDatabase(harness.db, `DELETE FROM audit_entries WHERE seq = 6`)).rejects.toThrow(
      /append-only/,
    );
  });
});
