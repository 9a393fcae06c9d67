/**
 * The claim asks acl about the claimant (docs/api/contract.md §4.4, §5): with acl answering it succeeds, with
 * acl down it is a 503 `upstream_unavailable` and nothing changes. Reads never need acl.
 */
import { randomUUID } from 'node:crypto';
import { call, queryDatabase } from '@media/testing';
import { FakeAcl, Harness, type Instance } from './in-process';

const harness = new Harness();
let instance: Instance;
let acl: FakeAcl;

beforeAll(async () => {
  await harness.start();
  instance = await harness.boot();
  acl = new FakeAcl(harness.nats.url);
  await acl.start();
}, 60_000);

afterAll(async () => {
  await acl?.stop();
  await harness.stop();
});

async function createTask(): Promise<string> {
  const res = await call(instance.base, '/api/v1/tasks', {
    token: harness.token(randomUUID(), ['tasks:assign']),
    json: { workflow_node_code: 'check', node_preview_name: 'Check' },
  });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const claim = (taskId: string, token: string) =>
  call<any>(instance.base, `/api/v1/tasks/${taskId}/claim`, { token, json: {} });

it('claims while acl answers, and answers 503 upstream_unavailable without changing anything while acl is down', async () => {
  const user = acl.addUser(['tasks:claim']);
  const token = harness.token(user.id, ['tasks:claim', 'tasks:read']);

  const first = await createTask();
  const ok = await claim(first, token);
  expect(ok.status).toBe(200);
  expect(ok.body.data.assigned_to_user).toEqual({ id: user.id, name: user.name, email: user.email });

  await acl.stop();
  const second = await createTask();
  const down = await claim(second, token);
  expect(down.status).toBe(503);
  expect(down.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
  const rows = await queryDatabase(harness.db, `SELECT status, assigned_to FROM tasks WHERE id = $1`, [
    second,
  ]);
  expect(rows).toEqual([{ status: 'OPEN', assigned_to: null }]);
  const events = await queryDatabase(
    harness.db,
    `SELECT count(*)::int AS n FROM outbox WHERE payload->>'task_id' = $1`,
    [second],
  );
  expect(events).toEqual([{ n: 0 }]);

  // Reads need no acl: the assignee was recorded at the claim.
  const got = await call<any>(instance.base, `/api/v1/tasks/${first}`, { token });
  expect(got.status).toBe(200);
  expect(got.body.assigned_to_user.email).toBe(user.email);
  const list = await call<any>(instance.base, '/api/v1/tasks?claimable_by=me', { token });
  expect(list.status).toBe(200);
  expect(list.body.results.map((t: any) => t.id)).toEqual([second, first]);

  // acl back: the same claim goes through.
  await acl.start();
  expect((await claim(second, token)).status).toBe(200);
});
