/**
 * Background work after SIGTERM, with an SMTP server that stalls (it never answers the message
 * it is sent): the delivery worker takes nothing new, gives back what it claimed (emails of a
 * round, daily digests), cuts the send under way at half of SHUTDOWN_TIMEOUT, and the process
 * exits 0 (a hung stop is killed with 1 at SHUTDOWN_TIMEOUT + 5 s; SMTP_TIMEOUT here is 60 s).
 * The next process sends everything that was given back, each email once.
 */
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { call, eventually, mintToken, queryDatabase } from '@media/testing';
import { startMailStack, type MailStack, type ReceivedMail } from './mail-stack';
import { system } from './support';

/** While true the SMTP server takes messages in and never answers them. */
let stall = true;
/** The messages the server answered "250 OK": delivered. */
const accepted: ReceivedMail[] = [];
let stack: MailStack;

const ENV = { SHUTDOWN_TIMEOUT: '4s', SMTP_TIMEOUT: '60s' };

beforeAll(async () => {
  stack = await startMailStack({
    name: 'sigterm',
    recipientName: 'Reader',
    hold: (mail) => {
      if (stall) return true;
      accepted.push(mail);
      return false;
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

beforeEach(() => {
  stall = true;
});

function person(): { id: string; address: string } {
  const id = randomUUID();
  const address = `reader-${id.slice(0, 8)}@example.com`;
  stack.people.set(id, address);
  return { id, address };
}

async function notify(recipients: string[], title: string): Promise<void> {
  const packet = {
    id: randomUUID(),
    pattern: 'notifications.send',
    data: {
      data: { recipient_ids: recipients, notification_type: 'report.ready', title, body: 'x' },
      meta: {},
    },
  };
  const reply = await stack.nc.request('notifications.send', JSON.stringify(packet), { timeout: 10_000 });
  expect(reply.json<{ response: unknown }>().response).toEqual({ delivered: recipients.length });
}

/** SIGTERMs the newest process; resolves with its exit code (a signal's name when killed). */
function terminate(): Promise<number | string | null> {
  const child: ChildProcess = stack.processes[stack.processes.length - 1].child;
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.kill('SIGTERM');
  });
}

const query = <R extends Record<string, unknown>>(sql: string, params: unknown[]) =>
  queryDatabase<R>(stack.dbUrl, sql, params);

const to = (mails: ReceivedMail[], address: string) => mails.filter((m) => m.to.includes(address));

it('stops an email round on SIGTERM with SMTP stalled: exits 0, gives the emails back, the next process sends each once', async () => {
  await stack.boot(ENV);
  const readers = [person(), person(), person()];
  const ids = readers.map((r) => r.id);
  await notify(ids, 'Report ready');
  // The first email of the round is with the server, which sits on it.
  const first = await eventually(
    async () => stack.received.filter((m) => readers.some((r) => m.to.includes(r.address))),
    (got) => got.length >= 1,
    30_000,
  );
  expect(first).toHaveLength(1);

  expect(await terminate()).toBe(0);
  // Nothing else was tried, nothing is left claimed, and no attempt was counted.
  expect(stack.received.filter((m) => readers.some((r) => m.to.includes(r.address)))).toHaveLength(1);
  const rows = await query(
    `SELECT email_status, email_claim, email_lease_until, attempts FROM notifications
      WHERE recipient_id = ANY($1::uuid[])`,
    [ids],
  );
  expect(rows).toEqual(
    ids.map(() => ({ email_status: 'pending', email_claim: null, email_lease_until: null, attempts: 0 })),
  );

  stall = false;
  await stack.boot(ENV);
  const sent = await eventually(
    () =>
      query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications WHERE recipient_id = ANY($1::uuid[]) AND email_status = 'sent'`,
        [ids],
      ),
    ([row]) => row.n === ids.length,
    30_000,
  );
  expect(sent).toEqual([{ n: 3 }]);
  for (const reader of readers) expect(to(accepted, reader.address)).toHaveLength(1);
  await terminate();
}, 180_000);

it('gives daily digests back on SIGTERM with SMTP stalled: exits 0, the next process sends each digest once', async () => {
  const url = await stack.boot(ENV);
  const readers = [person(), person(), person()];
  const ids = readers.map((r) => r.id);
  for (const reader of readers) {
    const token = mintToken(system().keys, { sub: reader.id, email: reader.address });
    const res = await call(url, '/api/v1/notifications/settings', {
      token,
      method: 'PUT',
      json: { email_digest: 'daily' },
    });
    expect(res.status).toBe(200);
  }
  await notify(ids, 'For the digest');
  await eventually(
    () =>
      query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications WHERE recipient_id = ANY($1::uuid[]) AND email_status = 'digest'`,
        [ids],
      ),
    ([row]) => row.n === ids.length,
    30_000,
  );
  // The digests are due now.
  await query(
    `UPDATE notification_settings SET next_digest_at = now() - interval '1 minute' WHERE recipient_id = ANY($1::uuid[])`,
    [ids],
  );
  const [{ due }] = await query<{ due: Date }>(
    `SELECT max(next_digest_at) AS due FROM notification_settings WHERE recipient_id = ANY($1::uuid[])`,
    [ids],
  );
  await eventually(
    async () => stack.received.filter((m) => readers.some((r) => m.to.includes(r.address))),
    (got) => got.length >= 1,
    30_000,
  );

  expect(await terminate()).toBe(0);
  expect(stack.received.filter((m) => readers.some((r) => m.to.includes(r.address)))).toHaveLength(1);
  const settings = await query(
    `SELECT next_digest_at <= now() AS due, digest_claim, digest_lease_until FROM notification_settings
      WHERE recipient_id = ANY($1::uuid[])`,
    [ids],
  );
  expect(settings).toEqual(ids.map(() => ({ due: true, digest_claim: null, digest_lease_until: null })));
  const entries = await query(
    `SELECT email_status, email_claim, attempts FROM notifications WHERE recipient_id = ANY($1::uuid[])`,
    [ids],
  );
  expect(entries).toEqual(ids.map(() => ({ email_status: 'digest', email_claim: null, attempts: 0 })));

  stall = false;
  await stack.boot(ENV);
  await eventually(
    () =>
      query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notification_settings WHERE recipient_id = ANY($1::uuid[]) AND next_digest_at > $2`,
        [ids, due],
      ),
    ([row]) => row.n === ids.length,
    30_000,
  );
  for (const reader of readers) {
    const digests = to(accepted, reader.address);
    expect(digests).toHaveLength(1);
    expect(digests[0].raw).toContain('Your daily digest: 1 notification');
  }
  await terminate();
}, 180_000);
