/**
 * Claiming a task, in docs/api/contract.md §4.4's order of checks, the race of concurrent claims,
 * claims on behalf of another user, the permission snapshot and candidate groups checked with
 * acl, and the work queue (`claimable_by=me`).
 */
import { randomUUID } from 'node:crypto';
import {
  aclApi,
  admin,
  api,
  assigner,
  createGroup,
  createTask,
  createUser,
  db,
  eventsOf,
  tokenFor,
  type User,
} from './support';

const claim = (taskId: string, token: string, json?: unknown) =>
  api(`/api/v1/tasks/${taskId}/claim`, { token, ...(json === undefined ? { method: 'POST' } : { json }) });

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

describe('POST /assignment/api/v1/tasks/{task_id}/claim', () => {
  it('claims an OPEN task for the caller: 200 envelope, CLAIMED, assignee from acl, one event', async () => {
    const task = await createTask();
    const res = await claim(task.id, editor.token, { user_id: editor.id });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Task claimed');
    expect(res.body.data).toMatchObject({
      id: task.id,
      status: 'CLAIMED',
      assigned_to: editor.id,
      assigned_to_user: { id: editor.id, name: editor.name, email: editor.email },
    });
    expect(Date.parse(res.body.data.assigned_at)).toBeGreaterThan(Date.now() - 60_000);
    const events = await eventsOf(task.id);
    expect(events).toEqual([
      {
        subject: 'assignment.task.claimed',
        payload: expect.objectContaining({
          task_id: task.id,
          assigned_to: editor.id,
          claimed_by: editor.id,
          status: 'CLAIMED',
        }),
      },
    ]);
  });

  it('takes the caller as the claimant when user_id is left out (empty body or none at all)', async () => {
    const a = await createTask();
    expect((await claim(a.id, editor.token)).body.data.assigned_to).toBe(editor.id);
    const b = await createTask();
    expect((await claim(b.id, editor.token, {})).body.data.assigned_to).toBe(editor.id);
  });

  it('is an idempotent 200 when the claimant already holds the task, with no second event', async () => {
    const task = await createTask();
    const first = await claim(task.id, editor.token, { user_id: editor.id });
    const again = await claim(task.id, editor.token, { user_id: editor.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await eventsOf(task.id)).toHaveLength(1);
  });

  it('refuses a task held by another user, or not OPEN/CLAIMED, with 409 task_not_claimable', async () => {
    const task = await createTask();
    await claim(task.id, other.token, { user_id: other.id });
    const res = await claim(task.id, editor.token, { user_id: editor.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: expect.stringContaining('CLAIMED'), code: 'task_not_claimable' });

    for (const end of ['complete', 'cancel'] as const) {
      const t = await createTask();
      await claim(t.id, other.token);
      await api(`/api/v1/tasks/${t.id}/${end}`, {
        method: 'POST',
        token: end === 'cancel' ? assigner() : other.token,
      });
      const refused = await claim(t.id, other.token);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('task_not_claimable');
    }
    // Even its own assignee cannot claim a task it has started.
    const started = await createTask();
    await claim(started.id, other.token);
    await api(`/api/v1/tasks/${started.id}/start`, { method: 'POST', token: other.token });
    const own = await claim(started.id, other.token);
    expect(own.status).toBe(409);
    expect(own.body.detail).toContain('IN_PROGRESS');
  });

  it('gives exactly one of 20 concurrent claims by different users the task; the rest get 409', async () => {
    const task = await createTask();
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser(['CORRESPONDENT'])));
    const results = await Promise.all(users.map((u) => claim(task.id, u.token, { user_id: u.id })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const winner = results.find((r) => r.status === 200)!.body.data.assigned_to;
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('task_not_claimable');
    const [row] = await db(`SELECT status, assigned_to FROM tasks WHERE id = $1`, [task.id]);
    expect(row).toEqual({ status: 'CLAIMED', assigned_to: winner });
    const events = await eventsOf(task.id);
    expect(events.map((e) => [e.subject, e.payload.assigned_to])).toEqual([
      ['assignment.task.claimed', winner],
    ]);
  }, 60_000);

  it('claims on behalf of another user with tasks:assign; the event names who claimed', async () => {
    const task = await createTask();
    const caller = randomUUID();
    const res = await claim(task.id, tokenFor(caller, ['tasks:assign']), {
      user_id: editor.id.toUpperCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      assigned_to: editor.id,
      assigned_to_user: { id: editor.id, email: editor.email },
    });
    const [event] = await eventsOf(task.id);
    expect(event.payload).toMatchObject({ assigned_to: editor.id, claimed_by: caller, actor_id: caller });
  });

  describe('order of checks', () => {
    it('403 for a claim on behalf of another without tasks:assign, before the body is validated', async () => {
      const task = await createTask();
      for (const user_id of [other.id, 'not-a-uuid', 42]) {
        const res = await claim(task.id, editor.token, { user_id });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
      // ...and before an unknown task's 404.
      expect((await claim(randomUUID(), editor.token, { user_id: other.id })).status).toBe(403);
    });

    it('403 for a claim for oneself without tasks:claim', async () => {
      const task = await createTask();
      const res = await claim(task.id, tokenFor(editor.id, ['tasks:read', 'tasks:assign']), {
        user_id: editor.id,
      });
      expect(res.status).toBe(403);
    });

    it('422 for a malformed user_id or task id (with the permission), a form body is 415', async () => {
      const task = await createTask();
      const boss = tokenFor(randomUUID(), ['tasks:assign', 'tasks:claim']);
      const bad = await claim(task.id, boss, { user_id: 'not-a-uuid' });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'user_id'], type: 'uuid_parsing' }),
      ]);
      const extra = await claim(task.id, boss, { user_id: editor.id, note: 'x' });
      expect(extra.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'note'], type: 'extra_forbidden' }),
      ]);
      const path = await claim('nope', editor.token, {});
      expect(path.status).toBe(422);
      expect(path.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'task_id'] })]);
      const form = await api(`/api/v1/tasks/${task.id}/claim`, {
        token: editor.token,
        form: { user_id: editor.id },
      });
      expect(form.status).toBe(415);
    });

    it('422 at ["body","user_id"] for an unknown or disabled user, even for an unknown task', async () => {
      const boss = tokenFor(randomUUID(), ['tasks:assign']);
      const unknown = await claim(randomUUID(), boss, { user_id: randomUUID() });
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'user_id'], type: 'value_error' }),
      ]);
      const disabled = await createUser(['EDITOR']);
      const patched = await aclApi(`/api/v1/users/${disabled.id}`, {
        method: 'PATCH',
        token: await admin(),
        json: { status: 'DISABLED' },
      });
      expect(patched.status).toBe(200);
      const task = await createTask();
      const res = await claim(task.id, boss, { user_id: disabled.id });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'user_id']);
    });

    it('404 for an unknown or a deleted task', async () => {
      expect((await claim(randomUUID(), editor.token)).status).toBe(404);
      const task = await createTask();
      await api(`/api/v1/tasks/${task.id}`, { method: 'DELETE', token: assigner() });
      const res = await claim(task.id, editor.token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });

    it('403 when the claimant (asked of acl) lacks a permission of the snapshot, whatever its token says', async () => {
      const task = await createTask({
        required_permissions_snapshot: [{ code: 'tasks:claim' }, { code: 'lineup:write' }],
      });
      // A correspondent has tasks:claim but not lineup:write, even with a token claiming otherwise.
      const corr = await createUser(['CORRESPONDENT']);
      const liar = tokenFor(corr.id, ['tasks:claim', 'lineup:write']);
      const refused = await claim(task.id, liar, { user_id: corr.id });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('lineup:write');
      // On behalf: the claimant's permissions count, not the caller's.
      const boss = tokenFor(randomUUID(), ['*']);
      expect((await claim(task.id, boss, { user_id: sales.id })).status).toBe(403);
      expect(await eventsOf(task.id)).toEqual([]);
      // An editor holds both.
      const ok = await claim(task.id, editor.token, { user_id: editor.id });
      expect(ok.status).toBe(200);
    });

    it('409 comes before the snapshot check', async () => {
      const task = await createTask({ required_permissions_snapshot: [{ code: 'lineup:write' }] });
      await claim(task.id, editor.token);
      const corr = await createUser(['CORRESPONDENT']);
      expect((await claim(task.id, corr.token)).status).toBe(409);
    });

    it('403 for a claimant outside the candidate groups; a member may claim', async () => {
      const group = await createGroup();
      const member = await createUser(['CORRESPONDENT'], [group]);
      const task = await createTask({ candidate_groups: [group, randomUUID()] });
      const outsider = await claim(task.id, editor.token);
      expect(outsider.status).toBe(403);
      expect(outsider.body.detail).toContain('candidate groups');
      const res = await claim(task.id, member.token);
      expect(res.status).toBe(200);
      expect(res.body.data.assigned_to).toBe(member.id);
    });
  });
});

describe('GET /assignment/api/v1/tasks?claimable_by=me', () => {
  it('lists the OPEN tasks the caller may claim together with the tasks it holds', async () => {
    const group = await createGroup();
    const me = await createUser(['EDITOR'], [group]);
    const entity = `queue-${randomUUID().slice(0, 8)}`;
    const mk = (fields: Record<string, unknown> = {}) => createTask({ entity_type: entity, ...fields });
    const plain = await mk();
    const needsWrite = await mk({ required_permissions_snapshot: [{ code: 'lineup:write' }] });
    const needsAdmin = await mk({ required_permissions_snapshot: [{ code: 'users:admin' }] });
    const mine = await mk({ candidate_groups: [group] });
    const notMyGroup = await mk({ candidate_groups: [randomUUID()] });
    const held = await mk();
    await claim(held.id, me.token);
    const heldByOther = await mk();
    await claim(heldByOther.id, other.token);
    const done = await mk();
    await claim(done.id, me.token);
    await api(`/api/v1/tasks/${done.id}/complete`, { method: 'POST', token: me.token });

    const res = await api(`/api/v1/tasks?claimable_by=me&entity_type=${entity}&page_size=100`, {
      token: me.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((t: any) => t.id)).toEqual([held.id, mine.id, needsWrite.id, plain.id]);
    // `*` holds every permission, but candidate groups still apply.
    const boss = tokenFor(randomUUID(), ['*'], [group]);
    const all = await api(`/api/v1/tasks?claimable_by=me&entity_type=${entity}`, { token: boss });
    expect(all.body.results.map((t: any) => t.id)).toEqual([mine.id, needsAdmin.id, needsWrite.id, plain.id]);
    expect(all.body.results.map((t: any) => t.id)).not.toContain(notMyGroup.id);
  });
});
