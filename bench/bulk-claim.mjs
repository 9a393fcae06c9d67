#!/usr/bin/env node
/**
 * Bulk claim vs single claims (docs/api/contract.md §7.2, endpoint 4): claiming 100 OPEN tasks
 * for one user through the gateway as ONE `POST /assignment/api/v1/tasks/bulk`, as 100
 * `POST .../tasks/{id}/claim` one after another, and as 100 claims 10 at a time. For each: the
 * wall-clock time, the SQL statements assignment sent to PostgreSQL (counted on the wire by a
 * proxy, bench/lib/pg-query-counter.mjs: every Query and Execute message, so BEGIN/COMMIT count),
 * and the `acl.users.get-many` requests seen on NATS.
 *
 *   npx nx run-many -t build && NATS_URL=nats://127.0.0.1:4222 node bench/bulk-claim.mjs
 *
 * acl, assignment and the gateway run from dist on databases of their own (bench/lib/assignment-stack.mjs);
 * each round seeds its own 300 OPEN tasks in assignment's database. Env: NATS_URL,
 * BENCH_DATABASE_URL, ROUNDS (5), KEEP_DB=1. Writes bench/results/bulk-claim.json. Every
 * measurement is checked: every answer 200 (every bulk item 200), and the 100 tasks CLAIMED by
 * the user in the database. Statements are split into the requests' own and the background
 * ones (the outbox relay publishing the events, which runs meanwhile in both cases).
 */
import { connect } from '@nats-io/transport-node';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { backgroundStatements, startQueryCounter } from './lib/pg-query-counter.mjs';
import { assert, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TASKS = 100;
const CONCURRENCY = 10;
const EDITOR = ['lineup:read', 'lineup:write', 'tasks:read', 'tasks:claim'];

/**
 * The outbox relay's own statements (claiming, publishing and marking events), not a request's;
 * with `backgroundStatements`, the rest of the claim's transaction too.
 */
const isBackground = (sql) => /^\s*(UPDATE|DELETE FROM)\s+(outbox|processed_events)\b/i.test(sql);

async function createUser(stack) {
  const login = await fetch(`${stack.urls.gateway}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(stack.admin),
  });
  const { access_token: adminToken } = await login.json();
  const res = await fetch(`${stack.urls.gateway}/acl/api/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({
      email: 'bulk-claimer@example.com',
      password: 'bench-password-1234',
      first_name: 'Bulk',
      last_name: 'Claimer',
      roles: ['EDITOR'],
    }),
  });
  const body = await res.json();
  assert(res.status === 201, `user create: ${res.status} ${JSON.stringify(body)}`);
  return { id: body.id, token: stack.token({ sub: body.id, permissions: EDITOR, roles: ['EDITOR'] }) };
}

async function post(stack, path, token, json) {
  const res = await fetch(`${stack.urls.gateway}/assignment/api/v1/tasks${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

const WAYS = {
  /** One request for the 100 tasks. */
  async bulk(stack, user, ids) {
    const res = await post(stack, '/bulk', user.token, { action: 'claim', task_ids: ids });
    assert(res.status === 200, `bulk: ${res.status}`);
    const bad = res.body.data.results.filter((r) => r.status !== 200);
    assert(bad.length === 0, `bulk: ${bad.length} items not 200: ${JSON.stringify(bad[0])}`);
  },
  /** 100 requests, one after another. */
  async single_sequential(stack, user, ids) {
    for (const id of ids) {
      const res = await post(stack, `/${id}/claim`, user.token, {});
      assert(res.status === 200, `claim: ${res.status}`);
    }
  },
  /** 100 requests, CONCURRENCY in flight. */
  async single_concurrent(stack, user, ids) {
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const res = await post(stack, `/${id}/claim`, user.token, {});
          assert(res.status === 200, `claim: ${res.status}`);
        }
      }),
    );
  },
};

async function main() {
  const counter = await startQueryCounter();
  const stack = await startAssignmentStack({
    prefix: 'bench_bulk_claim',
    natsUrl: NATS_URL,
    env: { ESCALATION_CHECK_INTERVAL: '1h' },
    appDatabaseUrl: (url) => counter.url(url),
  });
  const nc = await connect({ servers: NATS_URL });
  const aclRequests = [];
  const sub = nc.subscribe('acl.users.get-many', { callback: () => aclRequests.push(performance.now()) });
  try {
    const user = await createUser(stack);
    await withClient(stack.databases.assignment.url, async (db) => {
      const host = await machine(db);
      const seed = async () =>
        (
          await db.query(
            `INSERT INTO tasks (workflow_node_code, node_preview_name, required_permissions_snapshot, required_permissions)
             SELECT 'bench-review', 'Bench task ' || g, '[{"code": "tasks:claim"}]', '{tasks:claim}'
               FROM generate_series(1, $1) g RETURNING id`,
            [TASKS],
          )
        ).rows.map((r) => r.id);
      // Warm-up (JIT, pools, NATS connections), not reported.
      for (const way of Object.values(WAYS)) await way(stack, user, await seed());

      const runs = [];
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [name, way] of Object.entries(WAYS)) {
          const ids = await seed();
          await new Promise((done) => setTimeout(done, 500));
          const t0 = performance.now();
          const acl0 = aclRequests.length;
          await way(stack, user, ids);
          const t1 = performance.now();
          await nc.flush();
          const [{ n }] = (
            await db.query(
              `SELECT count(*)::int AS n FROM tasks WHERE id = ANY($1::uuid[]) AND status = 'CLAIMED' AND assigned_to = $2`,
              [ids, user.id],
            )
          ).rows;
          assert(n === TASKS, `${name}: ${n} of ${TASKS} tasks claimed`);
          const statements = counter.since(t0, t1);
          const background = backgroundStatements(statements, isBackground);
          const own = statements.filter((s) => !background.has(s));
          runs.push({
            way: name,
            round,
            ms: Math.round(t1 - t0),
            statements: own.length,
            background_statements: statements.length - own.length,
            acl_requests: aclRequests.length - acl0,
          });
          log(
            `${name} round ${round}: ${Math.round(t1 - t0)} ms, ${own.length} statements, ${aclRequests.length - acl0} acl requests`,
          );
        }
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const summary = Object.fromEntries(
        Object.keys(WAYS).map((way) => {
          const mine = runs.filter((r) => r.way === way);
          return [
            way,
            {
              ms_median: median(mine.map((r) => r.ms)),
              statements_median: median(mine.map((r) => r.statements)),
              acl_requests_median: median(mine.map((r) => r.acl_requests)),
            },
          ];
        }),
      );
      // One statement list of a bulk claim, grouped, to show where the statements go.
      const ids = await seed();
      const t0 = performance.now();
      await WAYS.bulk(stack, user, ids);
      const byText = new Map();
      const bulkStatements = counter.since(t0);
      const bulkBackground = backgroundStatements(bulkStatements, isBackground);
      for (const s of bulkStatements.filter((x) => !bulkBackground.has(x))) {
        const key = s.sql.replace(/\s+/g, ' ').trim().slice(0, 70);
        byText.set(key, (byText.get(key) ?? 0) + 1);
      }
      await writeResult('bulk-claim.json', {
        benchmark: `claiming ${TASKS} OPEN tasks for one user through the gateway: one bulk request vs ${TASKS} single claims`,
        measured_at: new Date().toISOString(),
        machine: host,
        setup:
          'acl, assignment and the gateway from dist (LOG_LEVEL info to files), each app on its own database, ' +
          `NATS ${NATS_URL}; the client in this process; all on one machine`,
        rounds: ROUNDS,
        ways: {
          bulk: `POST /assignment/api/v1/tasks/bulk {action: claim, task_ids: [${TASKS} ids]}`,
          single_sequential: `${TASKS} POST /assignment/api/v1/tasks/{id}/claim, one after another`,
          single_concurrent: `${TASKS} POST /assignment/api/v1/tasks/{id}/claim, ${CONCURRENCY} in flight`,
        },
        statements:
          'SQL statements assignment sent to PostgreSQL between the first request and the last answer, counted on the wire ' +
          '(every Query and Execute message: BEGIN and COMMIT included); background_statements are the outbox relay’s',
        checks: 'every answer (and every bulk item) 200; the 100 tasks CLAIMED by the user in the database',
        summary,
        bulk_statements_by_text: Object.fromEntries([...byText].sort((a, b) => b[1] - a[1])),
        runs,
      });
    });
  } finally {
    sub.unsubscribe();
    await nc.drain();
    await stack.stop();
    await counter.stop();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
