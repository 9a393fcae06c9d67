/**
 * acl not answering (docs/api/contract.md §4.9, §5): team attainment is a 503 `upstream_unavailable`, never rows
 * without their scope or their profiles. A stack of its own (a private NATS server, acl and
 * payment on fresh databases), so stopping acl does not disturb the other test files.
 */
import type { ChildProcess } from 'node:child_process';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  mintToken,
  queryDatabase,
  spawnDist,
  startNats,
  stopChild,
  type PrivateNats,
  waitReady,
} from '@media/testing';
import { system } from './support';

const run = `e2e_${Date.now()}_paydown`;
const databases = { acl: `${run}_acl`, payment: `${run}_payment` };
const children: ChildProcess[] = [];
let nats: PrivateNats | undefined;
let aclProcess: ChildProcess;
let paymentUrl: string;
const managerId = '5d6c1a52-3f4e-4d1b-9a2a-000000000001';
const bmId = '5d6c1a52-3f4e-4d1b-9a2a-000000000002';

beforeAll(async () => {
  await createDatabases(Object.values(databases));
  nats = await startNats();
  const natsUrl = nats.url;

  const [aclPort, paymentPort] = [await freePort(), await freePort()];
  const aclUrl = `http://127.0.0.1:${aclPort}`;
  paymentUrl = `http://127.0.0.1:${paymentPort}`;
  const base = {
    ...system().env,
    NATS_URL: natsUrl,
    LOG_LEVEL: 'warn',
    JWT_JWKS_URL: `${aclUrl}/acl/.well-known/jwks.json`,
  };
  const acl = spawnDist('acl', {
    ...base,
    PORT: String(aclPort),
    ACL_PORT: String(aclPort),
    DATABASE_URL: databaseUrl(databases.acl),
  });
  children.push((aclProcess = acl.child));
  await waitReady(`${aclUrl}/acl/health/ready`, acl, 45_000);
  const payment = spawnDist('payment', {
    ...base,
    PORT: String(paymentPort),
    PAYMENT_PORT: String(paymentPort),
    DATABASE_URL: databaseUrl(databases.payment),
  });
  children.push(payment.child);
  await waitReady(`${paymentUrl}/payment/health/ready`, payment, 45_000);

  await queryDatabase(
    databaseUrl(databases.acl),
    `INSERT INTO users (id, email, first_name, last_name) VALUES ($1, 'down-cm@example.com', 'Cm', 'Down')`,
    [managerId],
  );
  await queryDatabase(
    databaseUrl(databases.acl),
    `INSERT INTO users (id, email, first_name, last_name, manager_id) VALUES ($1, 'down-bm@example.com', 'Bm', 'Down', $2)`,
    [bmId, managerId],
  );
  await queryDatabase(
    databaseUrl(databases.payment),
    `INSERT INTO commission_targets (bm_id, category, month, year, target_amount) VALUES ($1, 'TV', 5, 2030, 100)`,
    [bmId],
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  await dropDatabases(Object.values(databases));
  await nats?.stop();
}, 60_000);

const readAll = () => mintToken(system().keys, { permissions: ['commissions:read-all'] });
const scoped = () => mintToken(system().keys, { permissions: ['commissions:read'], sub: managerId });
const get = (query: string, token: string) =>
  call(paymentUrl, `/payment/api/v1/commissions/cm-team-attainment${query}`, { token });

it('answers with acl up, then 503 upstream_unavailable once acl is stopped, scoped or not', async () => {
  const up = await get('?month=5&year=2030', readAll());
  expect(up.status).toBe(200);
  expect(up.body).toEqual([
    expect.objectContaining({ bm_id: bmId, bm_name: 'Bm Down', bm_email: 'down-bm@example.com' }),
  ]);
  expect((await get('?month=5&year=2030', scoped())).body).toHaveLength(1);

  await stopChild(aclProcess);

  for (const token of [readAll(), scoped()]) {
    const started = Date.now();
    const down = await get('?month=5&year=2030', token);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
    expect(Date.now() - started).toBeLessThan(5_000);
  }
  // Writes that must check the BM with acl are refused the same way, and store nothing.
  const write = await call(paymentUrl, '/payment/api/v1/commissions/targets', {
    token: readAll(),
    json: { bm_id: bmId, category: 'RADIO', month: 5, year: 2030, target_amount: '1' },
  });
  expect([write.status, write.body.code]).toEqual([503, 'upstream_unavailable']);
  expect(
    await queryDatabase(databaseUrl(databases.payment), `SELECT count(*)::int AS n FROM commission_targets`),
  ).toEqual([{ n: 1 }]);
  // Validation still comes first, and a read-all month without rows needs no profile.
  expect((await get('?month=13', readAll())).status).toBe(422);
  expect((await get('?month=6&year=2030', readAll())).body).toEqual([]);
});
