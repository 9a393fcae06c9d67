/**
 * A private stack of acl and assignment (its own databases): the claim works while acl runs, and
 * once acl is stopped it answers 503 `upstream_unavailable` without changing the task
 * (docs/api/contract.md §4.4, §5). Reads keep working: they never ask acl.
 */
import { once } from 'node:events';
import { call, mintToken, queryDatabase, startPrivateStack, type PrivateStack } from '@media/testing';
import { startNats, type PrivateNats } from './private-nats';

let priv: PrivateStack;
let nats: PrivateNats;

beforeAll(async () => {
  // Its own NATS: on the shared one, the main stack's acl would answer in place of the stopped one.
  nats = await startNats();
  priv = await startPrivateStack(['acl', 'assignment'], { NATS_URL: nats.url });
}, 240_000);

afterAll(async () => {
  await priv?.stop();
  await nats?.stop();
}, 60_000);

it('claims while acl runs and answers 503 once acl is down, leaving the task OPEN', async () => {
  const { info } = priv;
  const acl = info.urls.acl;
  const assignment = `${info.urls.assignment}/assignment`;
  const login = await call<any>(acl, '/acl/api/v1/auth/token', { json: info.admin });
  expect(login.status).toBe(200);
  const user = await call<any>(acl, '/acl/api/v1/users', {
    token: login.body.access_token,
    json: {
      email: 'down-test@example.com',
      password: 'correct horse battery',
      first_name: 'Down',
      last_name: 'Test',
      roles: ['EDITOR'],
    },
  });
  expect(user.status).toBe(201);
  const token = mintToken(info.keys, { sub: user.body.id, permissions: ['tasks:claim', 'tasks:read'] });
  const boss = mintToken(info.keys, { permissions: ['tasks:assign'] });
  const task = async () =>
    (
      await call<any>(assignment, '/api/v1/tasks', {
        token: boss,
        json: { workflow_node_code: 'down', node_preview_name: 'While acl is down' },
      })
    ).body.id as string;

  const first = await task();
  const ok = await call<any>(assignment, `/api/v1/tasks/${first}/claim`, { token, json: {} });
  expect(ok.status).toBe(200);
  expect(ok.body.data.assigned_to_user).toEqual({
    id: user.body.id,
    name: 'Down Test',
    email: 'down-test@example.com',
  });

  // JWKS are cached by assignment, so its tokens still verify with acl gone.
  const second = await task();
  const aclProcess = priv.process('acl');
  aclProcess.kill('SIGTERM');
  if (aclProcess.exitCode === null) await once(aclProcess, 'exit');

  const down = await call<any>(assignment, `/api/v1/tasks/${second}/claim`, { token, json: {} });
  expect(down.status).toBe(503);
  expect(down.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
  const rows = await queryDatabase(
    info.databases.assignment,
    `SELECT status, assigned_to FROM tasks WHERE id = $1`,
    [second],
  );
  expect(rows).toEqual([{ status: 'OPEN', assigned_to: null }]);

  const got = await call<any>(assignment, `/api/v1/tasks/${first}`, { token });
  expect(got.status).toBe(200);
  expect(got.body.assigned_to_user.email).toBe('down-test@example.com');
}, 60_000);
