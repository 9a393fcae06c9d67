/**
 * Tasks: creation over HTTP and NATS (docs/api/contract.md §4a, §5), reading one, and the list with its
 * filters, orderings and the work queue (docs/api/contract.md §3, §4.4).
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { api, assigner, createTask, db, follow, system, tokenFor } from './support';

const TASK_FIELDS = [
  'id',
  'status',
  'priority',
  'engine_request',
  'workflow_node_code',
  'node_preview_name',
  'node_instructions',
  'required_permissions_snapshot',
  'candidate_groups',
  'assigned_to',
  'assigned_at',
  'completed_at',
  'due_at',
  'source_service',
  'entity_type',
  'entity_id',
  'entity_reference',
  'created_at',
  'updated_at',
  'deleted_at',
  'assigned_to_user',
  'escalation_level',
].sort();

const reader = () => tokenFor(randomUUID(), ['tasks:read']);

describe('POST /assignment/api/v1/tasks', () => {
  it('creates an OPEN task with every field present and the defaults filled in', async () => {
    const res = await api('/api/v1/tasks', {
      token: assigner(),
      json: { workflow_node_code: 'approve', node_preview_name: 'Approve the lineup' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(TASK_FIELDS);
    expect(res.body).toMatchObject({
      status: 'OPEN',
      priority: 'MEDIUM',
      workflow_node_code: 'approve',
      node_preview_name: 'Approve the lineup',
      node_instructions: null,
      engine_request: null,
      required_permissions_snapshot: [],
      candidate_groups: [],
      assigned_to: null,
      assigned_at: null,
      assigned_to_user: null,
      completed_at: null,
      due_at: null,
      deleted_at: null,
      escalation_level: 0,
    });
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const [row] = await db(`SELECT status, priority FROM tasks WHERE id = $1`, [res.body.id]);
    expect(row).toEqual({ status: 'OPEN', priority: 'MEDIUM' });
  });

  it('stores every optional field as given', async () => {
    const entity = randomUUID();
    const group = randomUUID();
    const json = {
      workflow_node_code: 'w'.repeat(100),
      node_preview_name: 'n'.repeat(255),
      node_instructions: 'Check the facts',
      priority: 'URGENT',
      due_at: '2030-01-02T03:04:05.678+02:00',
      required_permissions_snapshot: [{ code: 'lineup:write' }, { code: 'tasks:claim' }],
      candidate_groups: [group.toUpperCase()],
      source_service: 'content',
      entity_type: 'schedule',
      entity_id: entity,
      entity_reference: 'TV-1 March',
      engine_request: '{"process":"p1"}',
    };
    const res = await api('/api/v1/tasks', { token: assigner(), json });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...json,
      due_at: '2030-01-02T01:04:05.678Z',
      candidate_groups: [group],
    });
  });

  it('needs a token (401) and tasks:assign (403)', async () => {
    const json = { workflow_node_code: 'a', node_preview_name: 'b' };
    expect((await api('/api/v1/tasks', { json })).status).toBe(401);
    const res = await api('/api/v1/tasks', {
      token: tokenFor(randomUUID(), ['tasks:claim', 'tasks:read']),
      json,
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('reports every failing field at its loc (422)', async () => {
    const res = await api('/api/v1/tasks', {
      token: assigner(),
      json: {
        node_preview_name: '',
        priority: 'CRITICAL',
        due_at: '2030-13-01T00:00:00Z',
        entity_id: 'nope',
        required_permissions_snapshot: [{ code: 'ok' }, {}],
        candidate_groups: [randomUUID(), 'x'],
        surprise: 1,
      },
    });
    expect(res.status).toBe(422);
    const byLoc = Object.fromEntries(res.body.detail.map((d: any) => [d.loc.join('.'), d.type]));
    expect(byLoc).toEqual({
      'body.workflow_node_code': 'missing',
      'body.node_preview_name': 'string_too_short',
      'body.priority': 'enum',
      'body.due_at': 'datetime_parsing',
      'body.entity_id': 'uuid_parsing',
      'body.required_permissions_snapshot.1.code': 'missing',
      'body.candidate_groups.1': 'uuid_parsing',
      'body.surprise': 'extra_forbidden',
    });
  });

  it('takes names up to their limits and refuses one character more', async () => {
    const base = { workflow_node_code: 'c', node_preview_name: 'n' };
    const cases: [Record<string, unknown>, string][] = [
      [{ workflow_node_code: 'w'.repeat(101) }, 'workflow_node_code'],
      [{ node_preview_name: 'n'.repeat(256) }, 'node_preview_name'],
      [{ entity_reference: 'r'.repeat(256) }, 'entity_reference'],
      [{ source_service: 's'.repeat(101) }, 'source_service'],
      [{ node_instructions: 'i'.repeat(10_001) }, 'node_instructions'],
    ];
    for (const [fields, field] of cases) {
      const res = await api('/api/v1/tasks', { token: assigner(), json: { ...base, ...fields } });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['body', field], type: 'string_too_long' }),
      ]);
    }
    const ok = await api('/api/v1/tasks', {
      token: assigner(),
      json: {
        ...base,
        entity_reference: 'r'.repeat(255),
        source_service: 's'.repeat(100),
        node_instructions: 'i'.repeat(10_000),
      },
    });
    expect(ok.status).toBe(201);
  });

  it('takes up to 50 required permissions and 100 candidate groups, not more', async () => {
    const base = { workflow_node_code: 'c', node_preview_name: 'n' };
    const perms = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `p:${i}` }));
    const groups = (n: number) => Array.from({ length: n }, () => randomUUID());
    expect(
      (
        await api('/api/v1/tasks', {
          token: assigner(),
          json: { ...base, required_permissions_snapshot: perms(50), candidate_groups: groups(100) },
        })
      ).status,
    ).toBe(201);
    const over = await api('/api/v1/tasks', {
      token: assigner(),
      json: { ...base, required_permissions_snapshot: perms(51), candidate_groups: groups(101) },
    });
    expect(over.status).toBe(422);
    expect(over.body.detail.map((d: any) => [d.loc.join('.'), d.type])).toEqual([
      ['body.required_permissions_snapshot', 'too_long'],
      ['body.candidate_groups', 'too_long'],
    ]);
  });

  it('answers malformed JSON with 422 json_invalid', async () => {
    const res = await api('/api/v1/tasks', {
      token: assigner(),
      raw: '{"workflow_node_code": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_invalid' })]);
  });
});

describe('assignment.tasks.create over NATS', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: system().env.NATS_URL });
  });
  afterAll(async () => {
    await nc?.close();
  });

  async function ask(data: unknown): Promise<any> {
    const id = randomUUID();
    const packet = {
      id,
      pattern: 'assignment.tasks.create',
      data: { data, meta: { request_id: `rpc-${id}` } },
    };
    const message = await nc.request('assignment.tasks.create', JSON.stringify(packet), { timeout: 3000 });
    return message.json();
  }

  it('creates the task and answers it', async () => {
    const entity = randomUUID();
    const reply = await ask({
      workflow_node_code: 'invoice-review',
      node_preview_name: 'Review invoice',
      source_service: 'inventory',
      entity_type: 'booking',
      entity_id: entity,
      priority: 'HIGH',
    });
    expect(reply.err).toBeUndefined();
    expect(reply.response).toMatchObject({
      status: 'OPEN',
      priority: 'HIGH',
      entity_id: entity,
      source_service: 'inventory',
    });
    const got = await api(`/api/v1/tasks/${reply.response.id}`, { token: reader() });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(reply.response);
  });

  it('answers a malformed payload with a 422 at ["data", ...]', async () => {
    const reply = await ask({ node_preview_name: 5 });
    expect(reply.response).toBeUndefined();
    expect(reply.err.status).toBe(422);
    expect(reply.err.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['data', 'workflow_node_code'], type: 'missing' }),
        expect.objectContaining({ loc: ['data', 'node_preview_name'], type: 'string_type' }),
      ]),
    );
  });
});

describe('GET /assignment/api/v1/tasks/{task_id}', () => {
  it('reads one task', async () => {
    const task = await createTask();
    const res = await api(`/api/v1/tasks/${task.id}`, { token: reader() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(task);
  });

  it('is 404 for an unknown or a deleted task, 422 for a malformed id, 403 without tasks:read', async () => {
    expect((await api(`/api/v1/tasks/${randomUUID()}`, { token: reader() })).body.code).toBe('not_found');
    const task = await createTask();
    const del = await api(`/api/v1/tasks/${task.id}`, { method: 'DELETE', token: assigner() });
    expect(del.status).toBe(204);
    const gone = await api(`/api/v1/tasks/${task.id}`, { token: reader() });
    expect(gone.status).toBe(404);
    expect((await db(`SELECT deleted_at FROM tasks WHERE id = $1`, [task.id]))[0].deleted_at).not.toBeNull();
    expect((await api(`/api/v1/tasks/${task.id}`, { method: 'DELETE', token: assigner() })).status).toBe(404);
    const bad = await api('/api/v1/tasks/not-a-uuid', { token: reader() });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'task_id'], type: 'uuid_parsing' }),
    ]);
    expect(
      (await api(`/api/v1/tasks/${task.id}`, { token: tokenFor(randomUUID(), ['tasks:claim']) })).status,
    ).toBe(403);
  });
});

describe('GET /assignment/api/v1/tasks', () => {
  // Tasks of one entity type unique to this run, so other tests' tasks stay out of the way.
  const entityType = `list-${randomUUID().slice(0, 8)}`;
  const entityA = randomUUID();
  let tasks: Record<string, any>[];

  beforeAll(async () => {
    tasks = [];
    const specs = [
      { priority: 'LOW', due_at: '2020-01-05T00:00:00Z', entity_id: entityA },
      { priority: 'HIGH', due_at: null, entity_id: entityA },
      { priority: 'HIGH', due_at: '2020-01-01T00:00:00Z' },
      { priority: 'URGENT', due_at: '2099-01-01T00:00:00Z' },
      { priority: 'MEDIUM', due_at: null },
    ];
    for (const spec of specs) tasks.push(await createTask({ entity_type: entityType, ...spec }));
  });

  const ids = (res: any) => res.body.results.map((t: any) => t.id);
  const list = (query: string) =>
    api(`/api/v1/tasks?entity_type=${entityType}&${query}`, { token: reader() });

  it('lists newest first in pages with next/previous links that keep the filters', async () => {
    const first = await list('page_size=2');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([tasks[4].id, tasks[3].id]);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toContain(`entity_type=${entityType}`);
    const second = await follow(first.body.next, reader());
    expect(ids(second)).toEqual([tasks[2].id, tasks[1].id]);
    const third = await follow(second.body.next, reader());
    expect(ids(third)).toEqual([tasks[0].id]);
    expect(third.body.next).toBeNull();
    const back = await follow(third.body.previous, reader());
    expect(ids(back)).toEqual([tasks[2].id, tasks[1].id]);
  });

  it('orders by due_at with tasks without due_at last, across pages', async () => {
    const first = await list('ordering=due_at&page_size=3');
    const second = await follow(first.body.next, reader());
    const nulls = [tasks[1].id, tasks[4].id].sort();
    expect([...ids(first), ...ids(second)]).toEqual([tasks[2].id, tasks[0].id, tasks[3].id, ...nulls]);
    expect(second.body.next).toBeNull();
  });

  it('filters by priority, entity_id, due_before, overdue and status', async () => {
    expect(ids(await list('priority=HIGH'))).toEqual([tasks[2].id, tasks[1].id]);
    expect(ids(await list(`entity_id=${entityA}`))).toEqual([tasks[1].id, tasks[0].id]);
    expect(ids(await list('due_before=2020-01-03T00:00:00Z'))).toEqual([tasks[2].id]);
    expect(ids(await list('overdue=true'))).toEqual([tasks[2].id, tasks[0].id]);
    expect(ids(await list('overdue=false'))).toEqual([tasks[4].id, tasks[3].id, tasks[1].id]);
    expect(ids(await list('status=OPEN'))).toHaveLength(5);
    expect(ids(await list('status=CLAIMED'))).toEqual([]);
  });

  it('refuses bad filters and page sizes with 422 at their loc', async () => {
    const cases: [string, string, string][] = [
      ['status=DONE', 'status', 'enum'],
      ['priority=LOWEST', 'priority', 'enum'],
      ['assigned_to=me', 'assigned_to', 'uuid_parsing'],
      ['entity_id=x', 'entity_id', 'uuid_parsing'],
      ['due_before=yesterday', 'due_before', 'datetime_parsing'],
      ['overdue=maybe', 'overdue', 'bool_parsing'],
      ['ordering=name', 'ordering', 'enum'],
      ['claimable_by=someone', 'claimable_by', 'enum'],
      ['page_size=0', 'page_size', 'greater_than_equal'],
      ['page_size=101', 'page_size', 'less_than_equal'],
      ['cursor=abc', 'cursor', 'value_error'],
    ];
    for (const [query, field, type] of cases) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 422]);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
    }
    expect((await list('page_size=100')).status).toBe(200);
    expect((await list('page_size=1')).status).toBe(200);
  });

  it('needs tasks:read', async () => {
    const res = await api('/api/v1/tasks', { token: tokenFor(randomUUID(), ['tasks:claim']) });
    expect(res.status).toBe(403);
  });
});

describe('GET /assignment/openapi.json', () => {
  it('describes every route with its success body and error statuses', async () => {
    const res = await api('/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, any>>;
    const claim = paths['/assignment/api/v1/tasks/{task_id}/claim'].post;
    expect(claim.operationId).toBe('assignmentTasksClaim');
    expect(Object.keys(claim.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '503',
    ]);
    expect(claim.responses['200'].content['application/json'].schema.properties.data.$ref).toBe(
      '#/components/schemas/TaskResponse',
    );
    const operations = Object.values(paths).flatMap((p) => Object.values(p));
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('assignmentTasks'))).toHaveLength(11);
    for (const op of operations.filter((o) => o.operationId.startsWith('assignment'))) {
      expect(Object.keys(op.responses).some((s) => s.startsWith('2'))).toBe(true);
    }
  });
});
