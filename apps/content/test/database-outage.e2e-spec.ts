/**
 * PostgreSQL outages answer 503 `database_unavailable` with Retry-After (docs/api/contract.md §2), never 500,
 * at the app and through the gateway (and at acl); logged once per outage; a read whose query is killed
 * mid-transaction is retried. Runs acl + content + a gateway on a PostgreSQL cluster of its own,
 * which it stops and starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Permissions } from '@media/contracts';
import {
  call,
  eventually,
  mintToken,
  startPostgresCluster,
  startPrivateStack,
  type PostgresCluster,
  type PrivateStack,
} from '@media/testing';

const LIST = '/content/api/v1/story-categories';

let cluster: PostgresCluster;
let stack: PrivateStack;
let token: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  stack = await startPrivateStack(['acl', 'content'], { DB_POOL_MAX: '3' }, { databaseServer: cluster.url });
  token = mintToken(stack.info.keys, { permissions: [Permissions.storyCategoriesRead] });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  cluster?.destroy();
}, 60_000);

const viaApp = () => call(stack.info.urls.content, LIST, { token });
const viaGateway = () => call(stack.info.gatewayUrl, LIST, { token });
/** acl's `users/me` reads through a prepared statement on the pool (PreparedQuery), not TypeORM. */
const aclMe = () => call(stack.info.urls.acl, '/acl/api/v1/users/me', { token });

function contentLog(): string[] {
  return readFileSync(join(stack.info.logDir, 'content.log'), 'utf8').split('\n');
}

describe('PostgreSQL stopped', () => {
  it('answers 503 database_unavailable with Retry-After at the app and through the gateway, logs it once, and recovers', async () => {
    expect((await viaGateway()).status).toBe(200);
    cluster.stop();
    try {
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await viaApp(), await viaGateway(), await aclMe());
      for (const answer of answers) {
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 503,
          body: { code: 'database_unavailable', detail: expect.any(String) },
        });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(JSON.stringify(answers.map((a) => a.body))).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|SELECT/);
      const outageLines = contentLog().filter((line) => line.includes('database unavailable'));
      expect(outageLines).toHaveLength(1);
      expect(contentLog().filter((line) => line.includes('Unhandled error'))).toEqual([]);
    } finally {
      cluster.start();
    }
    const back = await eventually(viaGateway, (res) => res.status === 200, 20_000);
    expect(back.status).toBe(200);
    expect(
      await eventually(
        async () => contentLog().some((line) => line.includes('database reachable again')),
        Boolean,
      ),
    ).toBe(true);
  });
});

describe('a session ended by pg_terminate_backend', () => {
  it('retries a read whose query was killed mid-transaction and answers 200', async () => {
    expect((await eventually(viaGateway, (res) => res.status === 200, 20_000)).status).toBe(200);
    const admin = new Client({ connectionString: stack.info.databases.content });
    // A session of its own watches for the blocked read: inside the admin's transaction,
    // pg_stat_activity stays as it was at its first read (PostgreSQL freezes it per transaction),
    // so polling it there never sees a read that arrived after the first poll.
    const observer = new Client({ connectionString: stack.info.databases.content });
    await Promise.all([admin.connect(), observer.connect()]);
    try {
      // The read waits on this lock, so its session is surely mid-query when it is terminated.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE story_categories IN ACCESS EXCLUSIVE MODE');
      const pending = viaGateway();
      // Every content session waiting on the lock reads this table for the request (one, unless
      // the gateway or the pool opened another meanwhile); each is terminated mid-query.
      const waiting = await eventually(
        async () =>
          (
            await observer.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity WHERE application_name = 'content' AND wait_event_type = 'Lock'`,
            )
          ).rows,
        (rows) => rows.length > 0,
        30_000,
      );
      expect(waiting.length).toBeGreaterThan(0);
      for (const { pid } of waiting) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.query('ROLLBACK');
      const answer = await pending;
      expect(answer.status).toBe(200);
    } finally {
      await Promise.all([admin.end(), observer.end()]);
    }
    // Longer than its waits (20 s for the stack, 30 s for the session on the lock) and the retry:
    // Jest's default 30 s cut it short on a loaded machine.
  }, 90_000);
});
