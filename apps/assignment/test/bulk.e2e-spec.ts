/**
 * Bulk task actions and reassignment (docs/api/contract.md §7.2), through the gateway against the
 * real apps: per-task results in input order with the single actions' statuses, one acl request
 * per bulk action, events and notifications, the work queue composed with bulk, and a bulk claim
 * racing single claims of the same tasks.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { call, eventually } from '@media/testing';
import {
  aclApi,
  admin,
  api,
  createGroup,
  createTask,
  createUser,
  db,
  eventsOf,
  system,
  tokenFor,
  type User,
} from './support';

const bulk = (token: string, json: unknown) => api('/api/v1/tasks/bulk', { token, json });
const reassign = (taskId: string, token: string, json: unknown) =>
  api(`/api/v1/tasks/${taskId}/reassign`, { token, json });
const claim = (taskId: string, token: string, json: unknown = {}) =>
  api(`/api/v1/tasks/${taskId}/claim`, { token, json });

/** A caller with `tasks:assign` (and `tasks:claim`) that need not exist in acl. */
const lead = () => tokenFor(randomUUID(), ['tasks:read', 'tasks:claim', 'tasks:assign']);

/** The user's inbox entries of one type, polled until `count` are there. */
async function inbox(user: User, type: string, count = 1): Promise<any[]> {
  return eventually(
    async () => {
      const res = await call(system().gatewayUrl, '/api/v1/notifications?page_size=100', {
        token: user.token,
      });
      return ((res.body?.data?.results ?? []) as any[]).filter((n) => n.notification_type === type);
    },
    (items) => items.length >= count,
    10_000,
  );
}

let editor: User;
let other: User;
let sales: User;

beforeAll(async () => {
  [editor, other, sales] = await Promise.all([
    createUser(['EDITOR']),
    createUser(['EDITOR']),
    createUser(['SALES']),
  ]);
});

describe('POST /assignment/api/v1/tasks/bulk', () => {
  let nc: NatsConnection;
  let sub: Subscription;
  /** Every `acl.users.get-many` request seen, as sent (an observer: it never answers). */
  const aclAsked: string[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: system().env.NATS_URL });
    sub = nc.subscribe('acl.users.get-many', {
      callback: (_err, msg) => {
        aclAsked.push(msg.string());
      },
    });
    await nc.flush();
  });

  afterAll(async () => {
    sub.unsubscribe();
    await nc.drain();
  });

  it('claims each task in input order, answering for each what the single claim would, asking acl once', async () => {
    const group = await createGroup();
    const open = await createTask();
    const mine = await createTask();
    await claim(mine.id, editor.token);
    const held = await createTask();
    await claim(held.id, other.token);
    const needsAdmin = await createTask({ required_permissions_snapshot: [{ code: 'users:admin' }] });
    const otherGroup = await createTask({ candidate_groups: [group] });
    const unknown = randomUUID();
    const open2 = await createTask();
    const ids = [open.id, unknown, held.id, needsAdmin.id, mine.id, otherGroup.id, open2.id.toUpperCase()];

    const asked = aclAsked.length;
    const res = await bulk(editor.token, { action: 'claim', task_ids: ids });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Bulk action applied' });
    const results = res.body.data.results as any[];
    expect(results.map((r) => [r.task_id, r.status])).toEqual([
      [open.id, 200],
      [unknown, 404],
      [held.id, 409],
      [needsAdmin.id, 403],
      [mine.id, 200],
      [otherGroup.id, 403],
      [open2.id.toUpperCase(), 200],
    ]);
    expect(results[0].task).toMatchObject({ id: open.id, status: 'CLAIMED', assigned_to: editor.id });
    expect(results[0].task.assigned_to_user).toEqual({
      id: editor.id,
      name: editor.name,
      email: editor.email,
    });
    expect(results[1].error).toEqual({ detail: expect.any(String), code: 'not_found' });
    expect(results[2].error).toEqual({
      detail: expect.stringContaining('CLAIMED'),
      code: 'task_not_claimable',
    });
    expect(results[3].error).toEqual({ detail: expect.stringContaining('users:admin'), code: 'forbidden' });
    expect(results[5].error.detail).toContain('candidate groups');
    for (const r of results)
      expect(Object.keys(r).sort()).toEqual(
        ['status', 'task_id', r.status === 200 ? 'task' : 'error'].sort(),
      );

    // One profile request for the whole bulk action, about the claimant.
    expect(aclAsked.slice(asked).filter((packet) => packet.includes(editor.id))).toHaveLength(1);

    // The same events as the single claims: one per task that changed, none for the rest.
    expect((await eventsOf(open.id)).map((e) => e.subject)).toEqual(['assignment.task.claimed']);
    expect((await eventsOf(open2.id)).map((e) => e.payload.claimed_by)).toEqual([editor.id]);
    expect(await eventsOf(needsAdmin.id)).toEqual([]);
    expect(await eventsOf(mine.id)).toHaveLength(1);
    const [row] = await db(`SELECT status, assigned_to FROM tasks WHERE id = $1`, [held.id]);
    expect(row).toEqual({ status: 'CLAIMED', assigned_to: other.id });
  });

  it('asks acl once for a bulk claim of 100 tasks on behalf of another user', async () => {
    const tasks = await Promise.all(Array.from({ length: 100 }, () => createTask()));
    const asked = aclAsked.length;
    const res = await bulk(lead(), { action: 'claim', task_ids: tasks.map((t) => t.id), user_id: other.id });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: any) => r.status)).toEqual(Array(100).fill(200));
    expect(aclAsked.slice(asked).filter((packet) => packet.includes(other.id))).toHaveLength(1);
  }, 60_000);

  it('answers 422 for every item when the claimant is unknown or not active, summarised in one sentence', async () => {
    const task = await createTask();
    const ghost = randomUUID();
    const res = await bulk(lead(), { action: 'claim', task_ids: [task.id, randomUUID()], user_id: ghost });
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([
      {
        task_id: task.id,
        status: 422,
        error: { detail: expect.stringContaining(ghost), code: 'validation_failed' },
      },
      expect.objectContaining({ status: 422, error: expect.objectContaining({ code: 'validation_failed' }) }),
    ]);
    expect(res.body.data.results[0].error.detail).toMatch(/^Invalid body\.user_id: .*\.$/);
    expect(await eventsOf(task.id)).toEqual([]);
  });

  it('applies start, complete and unclaim per task: 403 for a task held by another, 409 from a wrong status', async () => {
    const a = await createTask();
    const b = await createTask();
    const c = await createTask();
    const open = await createTask();
    await claim(a.id, editor.token);
    await claim(b.id, editor.token);
    await claim(c.id, other.token);
    const started = await bulk(editor.token, { action: 'start', task_ids: [a.id, c.id, open.id, b.id] });
    expect(started.status).toBe(200);
    expect(started.body.data.results.map((r: any) => [r.status, r.error?.code ?? r.task.status])).toEqual([
      [200, 'IN_PROGRESS'],
      [403, 'forbidden'],
      [403, 'forbidden'],
      [200, 'IN_PROGRESS'],
    ]);
    const done = await bulk(editor.token, { action: 'complete', task_ids: [a.id] });
    expect(done.body.data.results[0].task).toMatchObject({
      status: 'COMPLETED',
      completed_at: expect.any(String),
    });
    const again = await bulk(editor.token, { action: 'unclaim', task_ids: [a.id, b.id] });
    expect(again.body.data.results.map((r: any) => [r.status, r.error?.code ?? r.task.status])).toEqual([
      [409, 'invalid_transition'],
      [200, 'OPEN'],
    ]);
    expect((await eventsOf(a.id)).map((e) => e.subject)).toEqual([
      'assignment.task.claimed',
      'assignment.task.started',
      'assignment.task.completed',
    ]);
    expect((await eventsOf(b.id)).map((e) => e.subject).at(-1)).toBe('assignment.task.unclaimed');
    // A lead with tasks:assign may cancel anyone's task.
    const cancelled = await bulk(lead(), { action: 'cancel', task_ids: [c.id, open.id] });
    expect(cancelled.body.data.results.map((r: any) => r.task.status)).toEqual(['CANCELLED', 'CANCELLED']);
  });

  describe('the request as a whole', () => {
    it('is 422 at the later index of a repeated task id (case-insensitive)', async () => {
      const id = randomUUID();
      const res = await bulk(editor.token, {
        action: 'claim',
        task_ids: [id, randomUUID(), id.toUpperCase()],
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'task_ids', '2'], type: 'value_error' }),
      ]);
    });

    it('is 422 for a malformed body: no ids, over 100, bad uuid, unknown action, user_id rules', async () => {
      const cases: [unknown, string[], string][] = [
        [{ action: 'claim', task_ids: [] }, ['body', 'task_ids'], 'too_short'],
        [
          { action: 'claim', task_ids: Array.from({ length: 101 }, () => randomUUID()) },
          ['body', 'task_ids'],
          'too_long',
        ],
        [{ action: 'claim', task_ids: [randomUUID(), 'nope'] }, ['body', 'task_ids', '1'], 'uuid_parsing'],
        [{ action: 'explode', task_ids: [randomUUID()] }, ['body', 'action'], 'enum'],
        [{ action: 'reassign', task_ids: [randomUUID()] }, ['body', 'user_id'], 'missing'],
        [
          { action: 'start', task_ids: [randomUUID()], user_id: randomUUID() },
          ['body', 'user_id'],
          'extra_forbidden',
        ],
        [{ action: 'claim', task_ids: [randomUUID()], extra: 1 }, ['body', 'extra'], 'extra_forbidden'],
      ];
      for (const [json, loc, type] of cases) {
        const res = await bulk(lead(), json);
        expect([res.status, res.body.detail]).toEqual([422, [expect.objectContaining({ loc, type })]]);
      }
      const form = await api('/api/v1/tasks/bulk', {
        token: lead(),
        form: { action: 'claim', task_ids: randomUUID() },
      });
      expect(form.status).toBe(415);
    });

    it('is 403 before validation when the action needs a permission the caller lacks', async () => {
      const task = await createTask();
      const claimOnly = editor.token;
      for (const json of [
        { action: 'cancel', task_ids: [task.id] },
        { action: 'reassign', task_ids: [task.id], user_id: other.id },
        { action: 'claim', task_ids: [task.id], user_id: other.id },
        { action: 'reassign', task_ids: ['nope'] },
      ]) {
        const res = await bulk(claimOnly, json);
        expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
      }
      expect(
        (await bulk(tokenFor(randomUUID(), ['tasks:read']), { action: 'start', task_ids: [task.id] })).status,
      ).toBe(403);
      expect(await eventsOf(task.id)).toEqual([]);
    });
  });
});

describe('reassignment', () => {
  it('gives a held task to another user, keeping its status; emits reassigned and notifies both assignees', async () => {
    const task = await createTask({ priority: 'HIGH' });
    await claim(task.id, editor.token);
    await api(`/api/v1/tasks/${task.id}/start`, { method: 'POST', token: editor.token });
    const caller = randomUUID();
    const res = await reassign(task.id, tokenFor(caller, ['tasks:assign']), { user_id: other.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Task reassigned' });
    expect(res.body.data).toMatchObject({
      id: task.id,
      status: 'IN_PROGRESS',
      assigned_to: other.id,
      assigned_to_user: { id: other.id, name: other.name, email: other.email },
    });
    const events = await eventsOf(task.id);
    expect(events.at(-1)).toEqual({
      subject: 'assignment.task.reassigned',
      payload: expect.objectContaining({
        task_id: task.id,
        status: 'IN_PROGRESS',
        assigned_to: other.id,
        previous_assignee: editor.id,
        reassigned_by: caller,
        actor_id: caller,
      }),
    });
    const [toNew] = await inbox(other, 'assignment.task.reassigned');
    expect(toNew).toMatchObject({ title: 'A task was reassigned to you', data: { task_id: task.id } });
    const [toPrevious] = await inbox(editor, 'assignment.task.reassigned');
    expect(toPrevious).toMatchObject({ data: { task_id: task.id, assigned_to: other.id } });
    expect(toPrevious.title).toContain('reassigned to someone else');
  }, 30_000);

  it('changes and emits nothing when the task is reassigned to its current assignee', async () => {
    const task = await createTask();
    const claimed = await claim(task.id, editor.token);
    const res = await reassign(task.id, lead(), { user_id: editor.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(claimed.body.data);
    expect((await eventsOf(task.id)).map((e) => e.subject)).toEqual(['assignment.task.claimed']);
  });

  it('refuses a task that is not CLAIMED or IN_PROGRESS with 409 task_not_reassignable', async () => {
    const open = await createTask();
    const res = await reassign(open.id, lead(), { user_id: other.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: expect.stringContaining('OPEN'), code: 'task_not_reassignable' });
    const done = await createTask();
    await claim(done.id, editor.token);
    await api(`/api/v1/tasks/${done.id}/complete`, { method: 'POST', token: editor.token });
    expect((await reassign(done.id, lead(), { user_id: other.id })).body.code).toBe('task_not_reassignable');
  });

  it('checks as a claim does: 403 without tasks:assign, 422 body and inactive user, 404, then 403 for the assignee', async () => {
    const group = await createGroup();
    const member = await createUser(['EDITOR'], [group]);
    const task = await createTask({
      required_permissions_snapshot: [{ code: 'lineup:write' }],
      candidate_groups: [group],
    });
    await claim(task.id, member.token);
    expect((await reassign(task.id, editor.token, { user_id: other.id })).status).toBe(403);
    const bad = await reassign(task.id, lead(), { user_id: 'nope' });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', 'user_id']]);
    const missing = await reassign(task.id, lead(), {});
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'user_id'], type: 'missing' });
    const ghost = await reassign(randomUUID(), lead(), { user_id: randomUUID() });
    expect([ghost.status, ghost.body.detail[0].loc]).toEqual([422, ['body', 'user_id']]);
    expect((await reassign(randomUUID(), lead(), { user_id: other.id })).status).toBe(404);
    // A sales user lacks lineup:write; an editor outside the group is no candidate.
    const noPermission = await reassign(task.id, lead(), { user_id: sales.id });
    expect([noPermission.status, noPermission.body.detail]).toEqual([
      403,
      expect.stringContaining('lineup:write'),
    ]);
    const outsider = await reassign(task.id, lead(), { user_id: other.id });
    expect([outsider.status, outsider.body.detail]).toEqual([
      403,
      expect.stringContaining('candidate groups'),
    ]);
    const [row] = await db(`SELECT assigned_to FROM tasks WHERE id = $1`, [task.id]);
    expect(row.assigned_to).toBe(member.id);
    const disabled = await createUser(['EDITOR'], [group]);
    await aclApi(`/api/v1/users/${disabled.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    expect((await reassign(task.id, lead(), { user_id: disabled.id })).status).toBe(422);
  });

  it('reassigns in bulk: per-task 409 for tasks not held, 403 for tasks the assignee may not hold', async () => {
    const a = await createTask();
    const b = await createTask({ required_permissions_snapshot: [{ code: 'lineup:write' }] });
    const open = await createTask();
    await claim(a.id, editor.token);
    await claim(b.id, editor.token);
    const res = await bulk(lead(), {
      action: 'reassign',
      task_ids: [a.id, open.id, b.id],
      user_id: sales.id,
    });
    expect(res.body.data.results.map((r: any) => [r.status, r.error?.code ?? r.task.assigned_to])).toEqual([
      [200, sales.id],
      [409, 'task_not_reassignable'],
      [403, 'forbidden'],
    ]);
  });
});

describe('the work queue composed with bulk actions', () => {
  it('lets a lead list the tasks in its queue and hand them to a team member in one call each', async () => {
    const group = await createGroup();
    const member = await createUser(['EDITOR'], [group]);
    const entity = `bulk-queue-${randomUUID().slice(0, 8)}`;
    const leadToken = tokenFor(
      randomUUID(),
      ['tasks:read', 'tasks:claim', 'tasks:assign', 'lineup:write'],
      [group],
    );
    const queued = await Promise.all([
      createTask({ entity_type: entity }),
      createTask({ entity_type: entity, candidate_groups: [group] }),
      createTask({ entity_type: entity, required_permissions_snapshot: [{ code: 'lineup:write' }] }),
    ]);
    const held = await createTask({ entity_type: entity });
    await claim(held.id, editor.token);
    await createTask({ entity_type: entity, candidate_groups: [randomUUID()] });

    // The OPEN tasks the member could claim: the lead's queue, with the member's permissions and groups.
    const list = await api(`/api/v1/tasks?claimable_by=me&status=OPEN&entity_type=${entity}&page_size=100`, {
      token: leadToken,
    });
    const open = list.body.results.map((t: any) => t.id);
    expect(open.sort()).toEqual(queued.map((t) => t.id).sort());
    const claimed = await bulk(leadToken, { action: 'claim', task_ids: open, user_id: member.id });
    expect(claimed.body.data.results.map((r: any) => r.status)).toEqual([200, 200, 200]);

    // ...and the tasks held by someone else, reassigned to the member in one call.
    const heldList = await api(`/api/v1/tasks?assigned_to=${editor.id}&entity_type=${entity}`, {
      token: leadToken,
    });
    const moved = await bulk(leadToken, {
      action: 'reassign',
      task_ids: heldList.body.results.map((t: any) => t.id),
      user_id: member.id,
    });
    expect(moved.body.data.results.map((r: any) => [r.task_id, r.status])).toEqual([[held.id, 200]]);

    const queue = await api(`/api/v1/tasks?claimable_by=me&entity_type=${entity}&page_size=100`, {
      token: member.token,
    });
    expect(queue.body.results.map((t: any) => [t.id, t.status, t.assigned_to]).sort()).toEqual(
      [...queued, held].map((t) => [t.id, 'CLAIMED', member.id]).sort(),
    );
  });
});

describe('a bulk claim racing single claims', () => {
  it('gives each of 100 tasks exactly one winner; every loser is a 409 item or response', async () => {
    const [bulkUser, singleUser] = await Promise.all([createUser(['EDITOR']), createUser(['EDITOR'])]);
    const tasks = await Promise.all(Array.from({ length: 100 }, () => createTask()));
    const ids = tasks.map((t) => t.id);
    // The single claims go from the last task backwards, 8 at a time (as many clients would on 2
    // cores without timing out), while the bulk claim goes forwards: they meet in the middle.
    const singles: Awaited<ReturnType<typeof claim>>[] = [];
    const backwards = [...ids.keys()].reverse();
    const single = async () => {
      for (let i = backwards.shift(); i !== undefined; i = backwards.shift()) {
        singles[i] = await claim(ids[i], singleUser.token);
      }
    };
    const [bulkRes] = await Promise.all([
      bulk(bulkUser.token, { action: 'claim', task_ids: ids }),
      ...Array.from({ length: 8 }, single),
    ]);
    expect(bulkRes.status).toBe(200);
    const items = bulkRes.body.data.results as any[];
    expect(items.map((r) => r.task_id)).toEqual(ids);
    const rows = await db(`SELECT id, assigned_to FROM tasks WHERE id = ANY($1::uuid[])`, [ids]);
    const winner = new Map(rows.map((r) => [r.id, r.assigned_to]));
    ids.forEach((id, i) => {
      const item = items[i];
      const single = singles[i];
      expect([item.status, single.status].sort()).toEqual([200, 409]);
      const loser = item.status === 409 ? item.error : single.body;
      expect(loser.code).toBe('task_not_claimable');
      expect(winner.get(id)).toBe(item.status === 200 ? bulkUser.id : singleUser.id);
    });
    // A race, not two queues one after the other: each side won some tasks.
    expect(items.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(singles.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    const events = await db(
      `SELECT payload->>'task_id' AS task_id, count(*)::int AS n FROM outbox
        WHERE subject = 'assignment.task.claimed' AND payload->>'task_id' = ANY($1) GROUP BY 1`,
      [ids],
    );
    expect(events).toHaveLength(100);
    for (const e of events) expect(e.n).toBe(1);
  }, 120_000);
});
