/**
 * unclaim / start / complete / cancel (docs/api/contract.md §4.4): the whole transition table, who may act,
 * 409 naming the current status, and one outbox event per transition.
 */
import { randomUUID } from 'node:crypto';
import { api, assigner, createTask, createUser, db, eventsOf, tokenFor, type User } from './support';

type Action = 'claim' | 'unclaim' | 'start' | 'complete' | 'cancel';

const act = (action: Action, taskId: string, token: string) =>
  api(`/api/v1/tasks/${taskId}/${action}`, { method: 'POST', token });

let worker: User;
let boss: string;

beforeAll(async () => {
  worker = await createUser(['EDITOR']);
  boss = tokenFor(randomUUID(), ['tasks:assign', 'tasks:read']);
});

/** A task brought to `status` by the worker (and the boss for CANCELLED). */
async function taskIn(status: string): Promise<string> {
  const { id } = await createTask();
  const steps: Record<string, [Action, 'worker' | 'boss'][]> = {
    OPEN: [],
    CLAIMED: [['claim', 'worker']],
    IN_PROGRESS: [
      ['claim', 'worker'],
      ['start', 'worker'],
    ],
    COMPLETED: [
      ['claim', 'worker'],
      ['complete', 'worker'],
    ],
    CANCELLED: [['cancel', 'boss']],
  };
  for (const [action, who] of steps[status]) {
    const res = await act(action, id, who === 'boss' ? boss : worker.token);
    if (res.status !== 200) throw new Error(`${action} failed: ${res.status} ${res.text}`);
  }
  return id;
}

const TABLE: Record<Exclude<Action, 'claim'>, Record<string, string | null>> = {
  unclaim: { OPEN: null, CLAIMED: 'OPEN', IN_PROGRESS: 'OPEN', COMPLETED: null, CANCELLED: null },
  start: { OPEN: null, CLAIMED: 'IN_PROGRESS', IN_PROGRESS: null, COMPLETED: null, CANCELLED: null },
  complete: { OPEN: null, CLAIMED: 'COMPLETED', IN_PROGRESS: 'COMPLETED', COMPLETED: null, CANCELLED: null },
  cancel: {
    OPEN: 'CANCELLED',
    CLAIMED: 'CANCELLED',
    IN_PROGRESS: 'CANCELLED',
    COMPLETED: null,
    CANCELLED: null,
  },
};

const cases = Object.entries(TABLE).flatMap(([action, row]) =>
  Object.entries(row).map(([from, to]) => [action as Exclude<Action, 'claim'>, from, to] as const),
);

describe('the transition table', () => {
  it.each(cases)('%s from %s -> %s', async (action, from, to) => {
    const id = await taskIn(from);
    const before = await eventsOf(id);
    // The worker holds CLAIMED/IN_PROGRESS tasks; only tasks:assign may cancel or act on others.
    const token = action === 'cancel' || from === 'OPEN' || from === 'CANCELLED' ? boss : worker.token;
    const res = await act(action, id, token);
    const after = await eventsOf(id);
    if (to === null) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: expect.stringContaining(`is ${from}`), code: 'invalid_transition' });
      expect(after).toHaveLength(before.length);
      const [row] = await db(`SELECT status FROM tasks WHERE id = $1`, [id]);
      expect(row.status).toBe(from);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(to);
    expect(after).toHaveLength(before.length + 1);
    const event = after[after.length - 1];
    expect(event.subject).toBe(
      `assignment.task.${{ unclaim: 'unclaimed', start: 'started', complete: 'completed', cancel: 'cancelled' }[action]}`,
    );
    expect(event.payload).toMatchObject({ task_id: id, status: to });
    expect(event.payload).toHaveProperty('assigned_to');
  });
});

describe('what each transition changes', () => {
  it('unclaim clears the assignee and tells who held it; the task can be claimed again', async () => {
    const id = await taskIn('IN_PROGRESS');
    const res = await act('unclaim', id, worker.token);
    expect(res.body).toMatchObject({
      status: 'OPEN',
      assigned_to: null,
      assigned_at: null,
      assigned_to_user: null,
    });
    const events = await eventsOf(id);
    expect(events.at(-1)!.payload).toMatchObject({
      previous_assignee: worker.id,
      assigned_to: null,
      actor_id: worker.id,
    });
    expect((await act('claim', id, worker.token)).status).toBe(200);
  });

  it('complete sets completed_at and keeps the assignee; the event carries both', async () => {
    const id = await taskIn('IN_PROGRESS');
    const res = await act('complete', id, worker.token);
    expect(res.body).toMatchObject({ status: 'COMPLETED', assigned_to: worker.id });
    expect(Date.parse(res.body.completed_at)).toBeGreaterThan(Date.now() - 60_000);
    const event = (await eventsOf(id)).at(-1)!;
    expect(event.payload).toMatchObject({ assigned_to: worker.id, completed_at: res.body.completed_at });
  });

  it('start and cancel keep the assignee so it can be notified', async () => {
    const id = await taskIn('CLAIMED');
    expect((await act('start', id, worker.token)).body.assigned_to).toBe(worker.id);
    const cancelled = await act('cancel', id, boss);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', assigned_to: worker.id });
    expect((await eventsOf(id)).at(-1)!.payload).toMatchObject({ assigned_to: worker.id });
  });
});

describe('who may act', () => {
  it('another user with tasks:claim may not unclaim, start or complete a task it does not hold (403)', async () => {
    const stranger = await createUser(['EDITOR']);
    for (const action of ['unclaim', 'start', 'complete'] as const) {
      const id = await taskIn('CLAIMED');
      const res = await act(action, id, stranger.token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('tasks:assign may unclaim, start and complete on behalf of the assignee', async () => {
    for (const action of ['unclaim', 'start', 'complete'] as const) {
      const id = await taskIn('CLAIMED');
      expect((await act(action, id, boss)).status).toBe(200);
    }
  });

  it('cancel needs tasks:assign, even for the assignee (403)', async () => {
    const id = await taskIn('CLAIMED');
    expect((await act('cancel', id, worker.token)).status).toBe(403);
  });

  it('needs tasks:claim or tasks:assign at all (403), a token (401); unknown task 404; bad id 422', async () => {
    const id = await taskIn('CLAIMED');
    expect((await act('start', id, tokenFor(worker.id, ['tasks:read']))).status).toBe(403);
    expect((await api(`/api/v1/tasks/${id}/start`, { method: 'POST' })).status).toBe(401);
    const unknown = await act('start', randomUUID(), boss);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const bad = await act('complete', 'x', boss);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'task_id']);
  });

  it('403 (not the holder) comes before 409 (wrong status)', async () => {
    const stranger = await createUser(['CORRESPONDENT']);
    const id = await taskIn('OPEN');
    expect((await act('start', id, stranger.token)).status).toBe(403);
    expect((await act('start', id, assigner())).status).toBe(409);
  });
});
