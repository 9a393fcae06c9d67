/**
 * Idempotency keys on assignment's creates and claims (docs/api/contract.md §7.1); the whole
 * behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { randomUUID } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { api, assigner, createTask, createUser, db, eventsOf } from './support';

describe('Idempotency-Key on POST /assignment/api/v1/tasks', () => {
  it('creates one task for a retried create and replays the answer', async () => {
    const token = assigner();
    const headers = idempotencyKey();
    const json = { workflow_node_code: 'review', node_preview_name: `Idem ${randomUUID()}` };
    const first = await api('/api/v1/tasks', { token, json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await api('/api/v1/tasks', { token, json, headers }), first);
    expect(
      await db(`SELECT count(*)::int AS n FROM tasks WHERE node_preview_name = $1`, [json.node_preview_name]),
    ).toEqual([{ n: 1 }]);
  });

  it('refuses the key with another body (422) and frees it after a 422 of the body', async () => {
    const token = assigner();
    const headers = idempotencyKey();
    const invalid = await api('/api/v1/tasks', { token, json: { workflow_node_code: '' }, headers });
    expect(invalid.status).toBe(422);
    const json = { workflow_node_code: 'review', node_preview_name: `Fixed ${randomUUID()}` };
    const fixed = await api('/api/v1/tasks', { token, json, headers });
    expect(fixed.status).toBe(201);
    const other = await api('/api/v1/tasks', {
      token,
      json: { ...json, node_preview_name: 'another' },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
  });
});

describe('Idempotency-Key on POST /assignment/api/v1/tasks/{task_id}/claim', () => {
  it('replays a retried claim, with one claimed event', async () => {
    const editor = await createUser(['EDITOR']);
    const task = await createTask();
    const headers = idempotencyKey();
    const json = { user_id: editor.id };
    const path = `/api/v1/tasks/${task.id}/claim`;
    const first = await api(path, { token: editor.token, json, headers });
    expect(first.status).toBe(200);
    expectReplayOf(await api(path, { token: editor.token, json, headers }), first);
    expect((await eventsOf(task.id)).filter((e) => e.subject === 'assignment.task.claimed')).toHaveLength(1);
  });
});

describe('Idempotency-Key on the bulk action and the reassignment (docs/api/contract.md §7.1, §7.2)', () => {
  it('replays a retried bulk claim, with one claimed event per task', async () => {
    const editor = await createUser(['EDITOR']);
    const tasks = [await createTask(), await createTask()];
    const headers = idempotencyKey();
    const json = { action: 'claim', task_ids: tasks.map((t) => t.id) };
    const first = await api('/api/v1/tasks/bulk', { token: editor.token, json, headers });
    expect(first.status).toBe(200);
    expect(first.body.data.results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expectReplayOf(await api('/api/v1/tasks/bulk', { token: editor.token, json, headers }), first);
    for (const task of tasks) {
      expect((await eventsOf(task.id)).filter((e) => e.subject === 'assignment.task.claimed')).toHaveLength(
        1,
      );
    }
  });

  it('replays a retried reassignment, with one reassigned event', async () => {
    const [holder, next] = [await createUser(['EDITOR']), await createUser(['EDITOR'])];
    const task = await createTask();
    const claimed = await api(`/api/v1/tasks/${task.id}/claim`, { token: holder.token, json: {} });
    expect(claimed.status).toBe(200);
    const headers = idempotencyKey();
    const path = `/api/v1/tasks/${task.id}/reassign`;
    const json = { user_id: next.id };
    const token = assigner();
    const first = await api(path, { token, json, headers });
    expect(first.status).toBe(200);
    expectReplayOf(await api(path, { token, json, headers }), first);
    expect((await eventsOf(task.id)).filter((e) => e.subject === 'assignment.task.reassigned')).toHaveLength(
      1,
    );
  });
});
