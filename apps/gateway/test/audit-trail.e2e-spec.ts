/**
 * The audit trail end to end (CONTRACT §8), its three parts together with nothing standing in:
 * a private stack of acl, content, assignment and chat-notifications on a NATS of its own,
 * checkpoints every second. A user's changes are listed by each app with that user and the
 * request's id; every app's checkpoints are signed by acl over NATS; exports fetched through the
 * gateway (whole, in part, through the typed client) pass `npm run audit:verify` with acl's
 * audit-keys.json fetched through the gateway, also across a rotation of acl's signing key; a row
 * edited behind the database's back breaks verify and the offline check; acl's merged copy answers
 * "what did this user do" with the apps' own entries; the AUDITOR role reads, a role without
 * `audit:read` does not.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '@media/client';
import {
  call,
  eventually,
  queryDatabase,
  startNats,
  startPrivateStack,
  type PrivateNats,
  type PrivateStack,
} from '@media/testing';

const MAIN = join(__dirname, '..', '..', '..', 'dist', 'tools', 'audit-verify', 'src', 'main.js');
// A NATS of its own (on a fixed port of this test's range): on the shared one, another stack's
// apps would answer this one's requests, and its AUDIT stream holds other runs' entries at the same
// (app, seq), which acl's merged copy, keeping the first it saw, would list in place of these.
const NATS_PORT = 25_042;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run audit:verify`'s program (the build's main.js, as the script runs it). */
function auditVerify(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Entry {
  seq: number;
  app: string;
  action: string;
  actor: { type: string; id: string; name: string };
  resource: { type: string; id: string };
  request_id: string | null;
  changes: Record<string, [unknown, unknown]>;
}

let priv: PrivateStack;
let nats: PrivateNats;
let gw: string;
let dir: string;
const tokens: Record<'admin' | 'doer' | 'auditor' | 'editor', string> = {} as never;
let doerId: string;

type App = 'acl' | 'content' | 'assignment' | 'chat-notifications';
/** Where an app's API is through the gateway (chat-notifications has no prefix). */
const api = (app: App) => (app === 'chat-notifications' ? '/api/v1' : `/${app}/api/v1`);
/** A list or verification as every app answers it (chat-notifications envelopes its answers). */
const unwrap = (app: App, body: any) => (app === 'chat-notifications' ? body.data : body);

/** What the doer did: the request id of each write and the resource it touched. */
const done: { app: App; requestId: string; resourceId: string; action: string | RegExp }[] = [];
/** The entries of those writes as each app lists them (filled by the first test). */
const listedEntries: Entry[] = [];

const login = async (email: string, password: string) => {
  const res = await call<any>(gw, '/acl/api/v1/auth/token', { json: { email, password } });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
};

async function user(email: string, roles: string[]): Promise<string> {
  const res = await call<any>(gw, '/acl/api/v1/users', {
    token: tokens.admin,
    json: { email, password: 'correct horse battery', first_name: 'Audit', last_name: roles[0], roles },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function exportOf(app: App, token: string): Promise<string> {
  const res = await fetch(`${gw}${api(app)}/audit/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  return res.text();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-trail-'));
  nats = await startNats({ port: NATS_PORT });
  priv = await startPrivateStack(['acl', 'content', 'assignment', 'chat-notifications'], {
    NATS_URL: nats.url,
    AUDIT_CHECKPOINT_INTERVAL: '1s',
  });
  gw = priv.info.gatewayUrl;
  tokens.admin = await login(priv.info.admin.email, priv.info.admin.password);
  doerId = await user('doer@example.com', ['ADMIN']);
  await user('auditor@example.com', ['AUDITOR']);
  await user('editor@example.com', ['EDITOR']);
  tokens.doer = await login('doer@example.com', 'correct horse battery');
  tokens.auditor = await login('auditor@example.com', 'correct horse battery');
  tokens.editor = await login('editor@example.com', 'correct horse battery');
}, 300_000);

afterAll(async () => {
  await priv?.stop();
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** One write as the doer through the gateway; remembers its request id. */
async function write(
  app: App,
  path: string,
  action: string | RegExp,
  request: { method?: string; json?: unknown },
  resourceId?: string,
) {
  const res = await call<any>(gw, `${api(app)}${path}`, { token: tokens.doer, ...request });
  expect([path, res.status]).toEqual([path, expect.any(Number)]);
  expect(res.status).toBeLessThan(300);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toEqual(expect.any(String));
  const id = resourceId ?? res.body.data?.id ?? res.body.id;
  done.push({ app, requestId: requestId!, resourceId: id, action });
  return id as string;
}

/** The export's lines, parsed. */
const lines = (ndjson: string) =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

const kidOf = (jws: string) =>
  (JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

/** acl's audit-keys.json fetched through the gateway, saved to a file. */
async function savedAuditKeys(name: string): Promise<{ file: string; kids: string[] }> {
  const keys = await call<any>(gw, '/acl/.well-known/audit-keys.json');
  expect(keys.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, keys.text);
  return { file, kids: (keys.body.keys as { kid: string }[]).map((key) => key.kid) };
}

/** Waits for a checkpoint at or past `seq` in the app's export; answers the export's lines. */
async function checkpointed(app: App, seq = 1): Promise<Record<string, any>[]> {
  return eventually(
    async () => lines(await exportOf(app, tokens.doer)),
    (parsed) => parsed.some((line) => line.checkpoint && line.checkpoint.seq >= seq),
    { timeoutMs: 20_000, intervalMs: 500, orThrow: `a checkpoint at seq ${seq} or later in ${app}'s export` },
  );
}

describe('the audit trail through the gateway', () => {
  it('lists a user’s changes in content, assignment and chat-notifications with that user and the request id within 2 s', async () => {
    const category = await write('content', '/story-categories', 'story_category.created', {
      json: { name: 'Audited politics', description: 'before' },
    });
    await write(
      'content',
      `/story-categories/${category}`,
      'story_category.updated',
      { method: 'PATCH', json: { description: 'after' } },
      category,
    );
    await write(
      'content',
      `/story-categories/${category}`,
      'story_category.deleted',
      { method: 'DELETE' },
      category,
    );
    const task = await write('assignment', '/tasks', 'task.created', {
      json: { workflow_node_code: 'audit', node_preview_name: 'Audited task' },
    });
    await write('assignment', `/tasks/${task}/claim`, 'task.claimed', { json: {} }, task);
    await write(
      'chat-notifications',
      '/notifications/settings',
      /^notification\.settings\./,
      { method: 'PUT', json: { timezone: 'Europe/Berlin' } },
      doerId,
    );

    for (const { app, requestId, resourceId, action } of done) {
      const listed = await eventually(
        () =>
          call<any>(gw, `${api(app)}/audit?request_id=${encodeURIComponent(requestId)}`, {
            token: tokens.doer,
          }),
        (res) => res.status === 200 && unwrap(app, res.body).results?.length > 0,
        2_000,
      );
      expect([app, listed.status]).toEqual([app, 200]);
      const results = unwrap(app, listed.body).results as Entry[];
      expect(results).toEqual([
        expect.objectContaining({
          app,
          action: typeof action === 'string' ? action : expect.stringMatching(action),
          actor: expect.objectContaining({ type: 'user', id: doerId, name: 'Audit ADMIN' }),
          resource: expect.objectContaining({ id: resourceId }),
          request_id: requestId,
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
      ]);
      listedEntries.push(results[0]);
    }
    const byAction = (action: string) => listedEntries.find((entry) => entry.action === action)!;
    expect(byAction('story_category.updated').changes).toEqual({ description: ['before', 'after'] });
    expect(byAction('story_category.deleted').changes).toMatchObject({ name: ['Audited politics', null] });
    expect(byAction('task.claimed').changes).toMatchObject({ status: ['OPEN', 'CLAIMED'] });
  });

  it('checkpoints each app’s chain signed by the real acl, and verify answers valid with its kid', async () => {
    const { kids } = await savedAuditKeys('keys-now.json');
    for (const app of ['content', 'assignment', 'chat-notifications', 'acl'] as App[]) {
      const last = Math.max(0, ...listedEntries.filter((e) => e.app === app).map((e) => e.seq));
      const parsed = await checkpointed(app, last);
      const checkpoint = parsed.filter((line) => line.checkpoint).at(-1)!;
      expect(checkpoint).toEqual({
        checkpoint: {
          app,
          seq: expect.any(Number),
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          at: expect.any(String),
        },
        jws: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      // The entries exported are the entries listed, to the byte.
      for (const entry of listedEntries.filter((e) => e.app === app))
        expect(parsed.find((line) => line.seq === entry.seq)).toEqual(entry);
      const verify = await call<any>(gw, `${api(app)}/audit/verify`, { token: tokens.doer });
      expect([app, verify.status]).toEqual([app, 200]);
      const verification = unwrap(app, verify.body);
      expect(verification).toMatchObject({ valid: true, first_break: null });
      expect(verification.checkpoint.kid).toBe(kidOf(checkpoint.jws));
      expect(kids).toContain(verification.checkpoint.kid);
      expect(verification.entries).toBeGreaterThanOrEqual(last);
    }
  });

  it('passes an export fetched through the gateway to npm run audit:verify with acl’s audit-keys.json', async () => {
    const keys = await savedAuditKeys('audit-keys.json');
    for (const app of ['content', 'assignment', 'chat-notifications', 'acl'] as App[]) {
      const file = join(dir, `${app}.ndjson`);
      writeFileSync(file, await exportOf(app, tokens.doer));
      const result = await auditVerify(file, '--jwks', keys.file, '--json');
      expect([app, result.code, result.stderr]).toEqual([app, 0, '']);
      expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, first_break: null });
      expect(JSON.parse(result.stdout).checkpoints).toBeGreaterThan(0);
    }
    // The typed client reads the export as the page says: as text (NDJSON is no single JSON value).
    const client = createApiClient({ baseUrl: gw, token: tokens.doer });
    const typed = await client.GET('/assignment/api/v1/audit/export', { parseAs: 'text' });
    expect(typed.response.status).toBe(200);
    const file = join(dir, 'assignment-typed.ndjson');
    writeFileSync(file, typed.data as unknown as string);
    expect((await auditVerify(file, '--jwks', keys.file)).code).toBe(0);
    // Five exports and five runs of the verifier (a node process each): over 30 s in a CI run at
    // load 21.
  }, 120_000);

  it('answers what the user did in every app from acl’s merged copy within 5 s, the same entries the apps list', async () => {
    const all = await eventually(
      () => call<any>(gw, `/acl/api/v1/audit/all?actor_id=${doerId}&page_size=100`, { token: tokens.doer }),
      (res) =>
        res.status === 200 &&
        listedEntries.every((listed) =>
          res.body.results.some((e: Entry) => e.app === listed.app && e.seq === listed.seq),
        ),
      5_000,
    );
    expect(all.status).toBe(200);
    for (const listed of listedEntries)
      expect(all.body.results.find((e: Entry) => e.app === listed.app && e.seq === listed.seq)).toEqual(
        listed,
      );
    expect(all.body.results.every((e: Entry) => e.actor.id === doerId)).toBe(true);
    const contentOnly = await call<any>(
      gw,
      `/acl/api/v1/audit/all?actor_id=${doerId}&app=content&page_size=100`,
      { token: tokens.doer },
    );
    expect(contentOnly.body.results.map((e: Entry) => e.action)).toEqual([
      'story_category.deleted',
      'story_category.updated',
      'story_category.created',
    ]);
  });

  it('chains text beyond ASCII and over 1 KiB, security events and a partial export alike online and offline', async () => {
    const name = 'Ünïcødé 🎬 "quoted" \\ politique';
    const description = `${'é'.repeat(600)}\u2028${'🎬'.repeat(10)}`;
    const category = await write('content', '/story-categories', 'story_category.created', {
      json: { name, description },
    });
    const failed = await call<any>(gw, '/acl/api/v1/auth/token', {
      json: { email: 'nobody@example.com', password: 'not a password of anyone' },
    });
    expect(failed.status).toBe(401);
    const failedId = failed.headers.get('x-request-id')!;

    const [created] = await eventually(
      async () =>
        (await call<any>(gw, `/content/api/v1/audit?resource_id=${category}`, { token: tokens.doer })).body
          .results as Entry[],
      (results) => results?.length === 1,
      { timeoutMs: 2_000, orThrow: 'the category’s entry listed' },
    );
    expect(created.changes).toMatchObject({
      name: [null, name],
      description: [null, expect.stringMatching(/^sha256:[0-9a-f]{64}$/)],
    });
    const copy = await eventually(
      async () =>
        (await call<any>(gw, `/acl/api/v1/audit/all?request_id=${failedId}`, { token: tokens.doer })).body
          .results as Entry[],
      (results) => results?.length === 1,
      { timeoutMs: 5_000, orThrow: 'the failed login in acl’s copy' },
    );
    expect(copy).toEqual([
      expect.objectContaining({
        app: 'acl',
        action: 'user.login.failed',
        resource: { type: 'user', id: null },
      }),
    ]);

    const parsed = await checkpointed('content', created.seq);
    const keys = join(dir, 'audit-keys.json');
    const whole = join(dir, 'content-edges.ndjson');
    writeFileSync(whole, parsed.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const result = await auditVerify(whole, '--jwks', keys, '--json');
    expect([result.code, result.stderr]).toEqual([0, '']);
    const acl = join(dir, 'acl-edges.ndjson');
    writeFileSync(acl, await exportOf('acl', tokens.doer));
    expect((await auditVerify(acl, '--jwks', keys)).code).toBe(0);

    // A part of the chain from just past a checkpoint starts at that checkpoint.
    const first = parsed.find((line) => line.checkpoint)!.checkpoint.seq as number;
    const part = await fetch(`${gw}/content/api/v1/audit/export?from_seq=${first + 1}`, {
      headers: { authorization: `Bearer ${tokens.doer}` },
    });
    expect(part.status).toBe(200);
    const partText = await part.text();
    expect(JSON.parse(partText.split('\n')[0])).toMatchObject({ checkpoint: { seq: first } });
    const partFile = join(dir, 'content-part.ndjson');
    writeFileSync(partFile, partText);
    const partResult = await auditVerify(partFile, '--jwks', keys, '--json');
    expect([partResult.code, partResult.stderr]).toEqual([0, '']);

    // The list's links lead on through the gateway.
    const page = await call<any>(gw, `/acl/api/v1/audit/all?actor_id=${doerId}&page_size=2`, {
      token: tokens.doer,
    });
    expect(page.body.next).toEqual(expect.stringContaining(`${gw}/acl/api/v1/audit/all?`));
    const next = await call<any>(gw, page.body.next.slice(gw.length), { token: tokens.doer });
    expect(next.status).toBe(200);
    expect(next.body.results[0].at <= page.body.results[1].at).toBe(true);
    const appPage = await call<any>(gw, '/content/api/v1/audit?page_size=2', { token: tokens.doer });
    expect(appPage.body.next).toEqual(expect.stringContaining(`${gw}/content/api/v1/audit?`));
    const appNext = await call<any>(gw, appPage.body.next.slice(gw.length), { token: tokens.doer });
    expect(appNext.body.results[0].seq).toBe(appPage.body.results[1].seq - 1);
  });

  it('finds a row edited behind the database’s back, in verify and in a fresh export', async () => {
    const edited = listedEntries.find((e) => e.action === 'story_category.updated')!;
    // A superuser connection: the app's own user cannot update audit rows at all.
    await queryDatabase(
      priv.info.databases.content,
      `SET session_replication_role = replica;
       UPDATE audit_entries SET changes = '{"description": ["before", "forged"]}' WHERE seq = ${edited.seq};`,
    );
    const verify = await call<any>(gw, '/content/api/v1/audit/verify', { token: tokens.doer });
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({
      valid: false,
      first_break: { seq: edited.seq, reason: 'hash_mismatch' },
    });

    const file = join(dir, 'content-tampered.ndjson');
    writeFileSync(file, await exportOf('content', tokens.doer));
    const result = await auditVerify(file, '--jwks', join(dir, 'audit-keys.json'));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `first break: ${JSON.stringify({ seq: edited.seq, reason: 'hash_mismatch' })}`,
    );
    // acl's copy keeps what was sealed.
    const copy = await call<any>(gw, `/acl/api/v1/audit/all?app=content&request_id=${edited.request_id}`, {
      token: tokens.doer,
    });
    expect(copy.body.results).toEqual([edited]);
  });

  it('lets an AUDITOR read every audit endpoint and refuses a user without audit:read with 403', async () => {
    for (const path of [
      '/content/api/v1/audit',
      '/assignment/api/v1/audit/verify',
      '/api/v1/audit',
      '/acl/api/v1/audit',
      `/acl/api/v1/audit/all?actor_id=${doerId}`,
      '/assignment/api/v1/audit/export',
    ]) {
      const read = await call(gw, path, { token: tokens.auditor });
      expect([path, read.status]).toEqual([path, 200]);
      const refused = await call(gw, path, { token: tokens.editor });
      expect([path, refused.status]).toEqual([path, 403]);
    }
  });

  it('verifies checkpoints signed before and after a rotation of acl’s signing key, online and offline', async () => {
    const before = await call<any>(gw, '/assignment/api/v1/audit/verify', { token: tokens.doer });
    const oldKid = before.body.checkpoint.kid as string;
    // A rotation within a minute of the last one is refused (429); wait for one to be allowed.
    const rotated = await eventually(
      () => call<any>(gw, '/acl/api/v1/keys/rotate', { method: 'POST', token: tokens.admin }),
      (res) => res.status === 201,
      { timeoutMs: 90_000, intervalMs: 2_000 },
    );
    expect(rotated.status).toBe(201);
    // A new change, checkpointed with the new key once acl signs with it.
    const task = await write('assignment', '/tasks', 'task.created', {
      json: { workflow_node_code: 'audit', node_preview_name: 'After the rotation' },
    });
    const verification = await eventually(
      async () => {
        await call(gw, '/assignment/api/v1/tasks', {
          token: tokens.doer,
          json: { workflow_node_code: 'audit', node_preview_name: `Nudge ${task}` },
        });
        return (await call<any>(gw, '/assignment/api/v1/audit/verify', { token: tokens.doer })).body;
      },
      (body) => body.checkpoint?.kid === rotated.body.kid,
      { timeoutMs: 30_000, intervalMs: 1_500 },
    );
    expect(verification).toMatchObject({
      valid: true,
      first_break: null,
      checkpoint: { kid: rotated.body.kid },
    });

    const keys = await savedAuditKeys('after-rotation.json');
    expect(keys.kids).toEqual(expect.arrayContaining([oldKid, rotated.body.kid]));
    const file = join(dir, 'assignment-rotated.ndjson');
    writeFileSync(file, await exportOf('assignment', tokens.doer));
    const result = await auditVerify(file, '--jwks', keys.file, '--json');
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      valid: true,
      kids: expect.arrayContaining([oldKid, rotated.body.kid]),
    });
  }, 150_000);
});
