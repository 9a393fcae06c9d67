/**
 * Escalation (docs/api/contract.md §4.4) with a controlled clock: the job is called with the time it should
 * believe, or runs on its own schedule with `ESCALATION_NOW_OFFSET` moving its clock forward.
 * Levels: 0 until past due, then 1, plus one per elapsed ESCALATION_INTERVAL (24 h here);
 * idempotent; one `assignment.task.escalated` per task per pass (from level, to level), the level
 * capped at ESCALATION_MAX_LEVEL; two replicas at once escalate and announce each change exactly once.
 */
import { randomUUID } from 'node:crypto';
import { call, eventually, queryDatabase } from '@media/testing';
import { EscalatorService } from '../src/escalation/escalator.service';
import { Harness, type Instance } from './in-process';

const HOUR = 3_600_000;
const DUE = new Date('2030-06-01T12:00:00.000Z');
const at = (hoursAfterDue: number) => new Date(DUE.getTime() + hoursAfterDue * HOUR);

const harness = new Harness();
let a: Instance;
let b: Instance;

beforeAll(async () => {
  await harness.start();
  a = await harness.boot({ ESCALATION_BATCH: '7' });
  b = await harness.boot({ ESCALATION_BATCH: '7' });
}, 60_000);

afterAll(async () => {
  await harness.stop();
});

const admin = () => harness.token(randomUUID(), ['*']);

async function createTask(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await call<any>(a.base, '/api/v1/tasks', {
    token: admin(),
    json: {
      workflow_node_code: 'esc',
      node_preview_name: 'Escalate me',
      due_at: DUE.toISOString(),
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const level = async (id: string) =>
  (
    await queryDatabase<{ escalation_level: number }>(
      harness.db,
      `SELECT escalation_level FROM tasks WHERE id = $1`,
      [id],
    )
  )[0].escalation_level;

const escalations = (id: string) =>
  queryDatabase<{ level: number }>(
    harness.db,
    `SELECT (payload->>'escalation_level')::int AS level FROM outbox
      WHERE subject = 'assignment.task.escalated' AND payload->>'task_id' = $1 ORDER BY 1`,
    [id],
  ).then((rows) => rows.map((r) => r.level));

/** Only the tasks of one test: other tests' tasks share the database. */
async function clean(): Promise<void> {
  await queryDatabase(harness.db, `UPDATE tasks SET deleted_at = now() WHERE deleted_at IS NULL`);
}

describe('levels with a controlled clock', () => {
  beforeEach(clean);

  it('is 0 until due, 1 once past due, +1 per elapsed interval; running twice changes nothing', async () => {
    const id = await createTask();
    const escalator = a.app.get(EscalatorService);

    expect(await escalator.run(at(-1))).toEqual({ tasks: 0, events: 0 });
    expect(await escalator.run(at(0))).toEqual({ tasks: 0, events: 0 });
    expect(await level(id)).toBe(0);

    expect(await escalator.run(at(0.001))).toEqual({ tasks: 1, events: 1 });
    expect(await level(id)).toBe(1);
    expect(await escalator.run(at(23.9))).toEqual({ tasks: 0, events: 0 });

    expect(await escalator.run(at(24))).toEqual({ tasks: 1, events: 1 });
    expect(await level(id)).toBe(2);
    expect(await escalator.run(at(24))).toEqual({ tasks: 0, events: 0 });
    // An earlier clock never lowers a level.
    expect(await escalator.run(at(1))).toEqual({ tasks: 0, events: 0 });
    expect(await level(id)).toBe(2);
    expect(await escalations(id)).toEqual([1, 2]);

    const got = await call<any>(a.base, `/api/v1/tasks/${id}`, { token: admin() });
    expect(got.body.escalation_level).toBe(2);
  });

  it('announces several levels reached between runs in one event, from level and to level', async () => {
    const id = await createTask();
    expect(await a.app.get(EscalatorService).run(at(24 * 3 + 1))).toEqual({ tasks: 1, events: 1 });
    expect(await level(id)).toBe(4);
    expect(await escalations(id)).toEqual([4]);
    const [event] = await queryDatabase<{ payload: any }>(
      harness.db,
      `SELECT payload FROM outbox WHERE subject = 'assignment.task.escalated' AND payload->>'task_id' = $1 LIMIT 1`,
      [id],
    );
    expect(event.payload).toMatchObject({
      task_id: id,
      from_level: 0,
      to_level: 4,
      escalation_level: 4,
      assigned_to: null,
      actor_id: null,
      due_at: DUE.toISOString(),
    });
  });

  it('leaves completed, cancelled, deleted and undated tasks alone, and escalates held ones naming the assignee', async () => {
    const cancelled = await createTask();
    await call(a.base, `/api/v1/tasks/${cancelled}/cancel`, { method: 'POST', token: admin() });
    const deleted = await createTask();
    await call(a.base, `/api/v1/tasks/${deleted}`, { method: 'DELETE', token: admin() });
    const undated = await createTask({ due_at: null });
    const completed = await createTask();
    const held = await createTask();
    const assignee = randomUUID();
    await queryDatabase(
      harness.db,
      `UPDATE tasks SET status = 'COMPLETED', completed_at = now() WHERE id = $1`,
      [completed],
    );
    await queryDatabase(
      harness.db,
      `UPDATE tasks SET status = 'IN_PROGRESS', assigned_to = $2, assigned_at = now() WHERE id = $1`,
      [held, assignee],
    );
    expect(await a.app.get(EscalatorService).run(at(48))).toEqual({ tasks: 1, events: 1 });
    for (const id of [cancelled, deleted, undated, completed]) expect(await level(id)).toBe(0);
    expect(await level(held)).toBe(3);
    const rows = await queryDatabase<{ assigned_to: string }>(
      harness.db,
      `SELECT payload->>'assigned_to' AS assigned_to FROM outbox WHERE payload->>'task_id' = $1`,
      [held],
    );
    expect(rows.map((r) => r.assigned_to)).toEqual([assignee]);
  });

  it('writes one event for a task due in the year 1000, its level capped at ESCALATION_MAX_LEVEL', async () => {
    const id = await createTask({ due_at: '1000-01-01T00:00:00.000Z' });
    expect(await a.app.get(EscalatorService).run(at(1))).toEqual({ tasks: 1, events: 1 });
    expect(await level(id)).toBe(10);
    const events = await queryDatabase<{ payload: any }>(
      harness.db,
      `SELECT payload FROM outbox WHERE subject = 'assignment.task.escalated' AND payload->>'task_id' = $1`,
      [id],
    );
    expect(events.map((e) => [e.payload.from_level, e.payload.to_level])).toEqual([[0, 10]]);
    // At the cap, later passes change and announce nothing.
    expect(await a.app.get(EscalatorService).run(at(24 * 365))).toEqual({ tasks: 0, events: 0 });
  });

  it('takes its cap from ESCALATION_MAX_LEVEL', async () => {
    const id = await createTask({ due_at: '1000-01-01T00:00:00.000Z' });
    const capped = await harness.boot({ ESCALATION_MAX_LEVEL: '3' });
    expect(await capped.app.get(EscalatorService).run(at(1))).toEqual({ tasks: 1, events: 1 });
    expect(await level(id)).toBe(3);
    expect(await escalations(id)).toEqual([3]);
  });
});

describe('two replicas at once', () => {
  beforeEach(clean);

  it('escalates each task once and announces it in exactly one event', async () => {
    const ids: string[] = [];
    // Due dates spread over three days, so tasks reach different levels.
    for (let i = 0; i < 90; i++) ids.push(await createTask({ due_at: at(-(i % 3) * 24).toISOString() }));
    const now = at(1);
    const runs = await Promise.all([
      a.app.get(EscalatorService).run(now),
      b.app.get(EscalatorService).run(now),
      a.app.get(EscalatorService).run(now),
      b.app.get(EscalatorService).run(now),
    ]);
    const tasks = runs.reduce((n, r) => n + r.tasks, 0);
    const events = runs.reduce((n, r) => n + r.events, 0);
    expect(tasks).toBe(90);
    expect(events).toBe(90);

    const counts = await queryDatabase<{ task_id: string; level: number; n: number }>(
      harness.db,
      `SELECT payload->>'task_id' AS task_id, max((payload->>'to_level')::int) AS level, count(*)::int AS n
         FROM outbox WHERE subject = 'assignment.task.escalated' AND payload->>'task_id' = ANY($1)
        GROUP BY 1`,
      [ids],
    );
    expect(counts).toHaveLength(90);
    expect(counts.every((c) => c.n === 1)).toBe(true);
    const byTask = new Map(counts.map((c) => [c.task_id, c.level]));
    for (const [i, id] of ids.entries()) expect(byTask.get(id)).toBe((i % 3) + 1);
    for (const [i, id] of ids.entries()) expect(await level(id)).toBe((i % 3) + 1);

    const again = await Promise.all([
      a.app.get(EscalatorService).run(now),
      b.app.get(EscalatorService).run(now),
    ]);
    expect(again).toEqual([
      { tasks: 0, events: 0 },
      { tasks: 0, events: 0 },
    ]);
  }, 60_000);
});

describe('the scheduled job', () => {
  it('runs on its own, with its clock moved forward by ESCALATION_NOW_OFFSET', async () => {
    await clean();
    const soon = new Date(Date.now() + HOUR).toISOString();
    const id = await createTask({ due_at: soon });
    // An instance whose clock is 50 h ahead: the task is 49 h past due, level 3.
    const ahead = await harness.boot({ ESCALATION_NOW_OFFSET: '50h', ESCALATION_CHECK_INTERVAL: '200ms' });
    expect(
      await eventually(
        () => level(id),
        (reached) => reached >= 3,
        10_000,
      ),
    ).toBe(3);
    expect(await escalations(id)).toEqual([3]);
    const overdue = await call<any>(ahead.base, `/api/v1/tasks?overdue=true`, { token: admin() });
    expect(overdue.body.results.map((t: any) => t.id)).toEqual([id]);
  }, 30_000);
});
