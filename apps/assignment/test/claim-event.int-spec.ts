/**
 * The claim writes its `assignment.task.claimed` event in the statement of its UPDATE, with the
 * event base built in SQL (taskEventBaseSql): the payload is exactly `taskEventBase` of the
 * claimed task plus `assigned_to` and `claimed_by`, for tasks with every optional field set or
 * none, a due date before 1970 or with milliseconds, and a claim on behalf of another user; the
 * meta carries the request's id.
 */
import { randomUUID } from 'node:crypto';
import type { TaskClaimedEvent } from '@media/contracts';
import { call, queryDatabase } from '@media/testing';
import { DataSource } from 'typeorm';
import { Task } from '../src/tasks/task.entity';
import { taskEventBase } from '../src/tasks/task.view';
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

async function createTask(fields: Record<string, unknown>): Promise<string> {
  const res = await call<any>(instance.base, '/api/v1/tasks', {
    token: harness.token(randomUUID(), ['tasks:assign']),
    json: { workflow_node_code: 'check', node_preview_name: 'Check', ...fields },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The task as TypeORM loads it, as the transitions' events are built from. */
function loaded(id: string): Promise<Task> {
  return instance.app.get(DataSource).getRepository(Task).findOneByOrFail({ id });
}

const full = {
  priority: 'HIGH',
  due_at: '2031-02-03T04:05:06.789Z',
  node_instructions: 'Read it twice',
  required_permissions_snapshot: [{ code: 'tasks:claim' }],
  source_service: 'content',
  entity_type: 'article',
  entity_id: randomUUID().toUpperCase(),
  entity_reference: 'ART-1',
};

it.each([
  ['every optional field set', full],
  ['no optional field', {}],
  ['a due date before 1970, without milliseconds', { due_at: '1969-07-20T20:17:40Z' }],
])('writes the claimed event of a task with %s: taskEventBase of the task', async (_case, fields) => {
  const user = acl.addUser(['tasks:claim']);
  const id = await createTask(fields);
  const requestId = randomUUID();
  const res = await call<any>(instance.base, `/api/v1/tasks/${id}/claim`, {
    token: harness.token(user.id, ['tasks:claim']),
    json: {},
    headers: { 'x-request-id': requestId },
  });
  expect(res.status).toBe(200);
  const events = await queryDatabase<{ subject: string; payload: object; meta: Record<string, unknown> }>(
    harness.db,
    `SELECT subject, payload, meta FROM outbox WHERE payload->>'task_id' = $1`,
    [id],
  );
  const expected: TaskClaimedEvent = {
    ...taskEventBase(await loaded(id), user.id),
    assigned_to: user.id,
    claimed_by: user.id,
  };
  expect(events).toEqual([
    {
      subject: 'assignment.task.claimed',
      payload: expected,
      meta: expect.objectContaining({ request_id: requestId }),
    },
  ]);
});

it('names the caller as actor and claimer when it claims on behalf of another user', async () => {
  const user = acl.addUser(['tasks:claim']);
  const caller = randomUUID();
  const id = await createTask(full);
  const res = await call<any>(instance.base, `/api/v1/tasks/${id}/claim`, {
    token: harness.token(caller, ['tasks:assign']),
    json: { user_id: user.id },
  });
  expect(res.status).toBe(200);
  const [{ payload }] = await queryDatabase<{ payload: object }>(
    harness.db,
    `SELECT payload FROM outbox WHERE payload->>'task_id' = $1`,
    [id],
  );
  expect(payload).toEqual({
    ...taskEventBase(await loaded(id), caller),
    assigned_to: user.id,
    claimed_by: caller,
  });
});

it('claims on once a column is added to tasks under the running app (the claim is a prepared statement)', async () => {
  const user = acl.addUser(['tasks:claim']);
  const claim = async () => {
    const id = await createTask({});
    const res = await call<any>(instance.base, `/api/v1/tasks/${id}/claim`, {
      token: harness.token(user.id, ['tasks:claim']),
      json: {},
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'CLAIMED', assigned_to: user.id });
  };
  // Claims one after another reuse the pool's connection on which the statement is prepared.
  for (let i = 0; i < 3; i++) await claim();
  await queryDatabase(harness.db, 'ALTER TABLE tasks ADD COLUMN claim_test_added text');
  try {
    for (let i = 0; i < 3; i++) await claim();
  } finally {
    await queryDatabase(harness.db, 'ALTER TABLE tasks DROP COLUMN claim_test_added');
  }
});
