/**
 * Email delivery over real SMTP: a chat-notifications process booted with SMTP_URL pointing at
 * an `smtp-server` started here, on its own database and its own NATS server (so that no other
 * replica, booted without SMTP_URL, takes its work), with acl's `acl.users.get-many` answered
 * by this test on that server (documents has no responder there: its check is a 503).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  mintToken,
  queryDatabase,
} from '@media/testing';
import { SMTPServer } from 'smtp-server';
import { eventually, system } from './support';

const ROOT = resolve(__dirname, '../../..');

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let natsServer: ChildProcess;
let app: ChildProcess;
let appUrl: string;
let nc: NatsConnection;
const received: Received[] = [];
const dbName = `e2e_chat_email_${randomBytes(4).toString('hex')}`;
let dbUrl: string;
const people = new Map<string, string>();

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  smtp.listen(smtpPort, '127.0.0.1');
  await once(smtp.server, 'listening');

  const natsPort = await freePort();
  natsServer = spawn(
    'nats-server',
    ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', `/tmp/${dbName}-nats`],
    {
      stdio: 'ignore',
    },
  );
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  nc = await eventually(() => connect({ servers: natsUrl }).catch(() => undefined), 15_000);
  // acl's profile lookup, answered here: the recipients this test knows.
  nc.subscribe('acl.users.get-many', {
    callback: (_error, message) => {
      const packet = message.json<{ id: string; data: { data: { ids: string[] } } }>();
      const response = packet.data.data.ids
        .filter((id) => people.has(id))
        .map((id) => ({ id, email: people.get(id), name: 'Mail Tester', status: 'ACTIVE' }));
      message.respond(JSON.stringify({ id: packet.id, response, isDisposed: true }));
    },
  });

  await createDatabases([dbName]);
  dbUrl = databaseUrl(dbName);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = spawn(process.execPath, [join(ROOT, 'dist/apps/chat-notifications/src/main.js')], {
    env: {
      ...system().env,
      PATH: process.env.PATH ?? '',
      DATABASE_URL: dbUrl,
      NATS_URL: natsUrl,
      CHAT_NOTIFICATIONS_PORT: String(port),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Back Office <office@example.com>',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(async () => {
    if (app.exitCode !== null) throw new Error(`app exited with ${app.exitCode}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
    return res?.ok ? true : undefined;
  }, 60_000);
});

afterAll(async () => {
  app?.kill('SIGTERM');
  if (app && app.exitCode === null) await once(app, 'exit');
  await nc?.close();
  natsServer?.kill('SIGTERM');
  await new Promise<void>((done) => (smtp ? smtp.close(() => done()) : done()));
  await dropDatabases([dbName]);
});

async function send(recipients: string[], type: string, title: string, body: string): Promise<unknown> {
  const id = randomUUID();
  const packet = {
    id,
    pattern: 'notifications.send',
    data: { data: { recipient_ids: recipients, notification_type: type, title, body }, meta: {} },
  };
  const reply = await nc.request('notifications.send', JSON.stringify(packet), { timeout: 5000 });
  return reply.json<{ response: unknown }>().response;
}

const status = async (recipient: string, type: string) =>
  (
    await queryDatabase<{ email_status: string }>(
      dbUrl,
      `SELECT email_status FROM notifications WHERE recipient_id = $1 AND notification_type = $2`,
      [recipient, type],
    )
  )[0]?.email_status;

describe('email channel over SMTP', () => {
  it("sends the notification to the recipient's address, From MAIL_FROM, and records it sent", async () => {
    const recipient = randomUUID();
    people.set(recipient, 'reader@example.com');
    expect(await send([recipient], 'report.ready', 'Your report is ready', 'Open the back office.')).toEqual({
      delivered: 1,
    });
    const mail = await eventually(async () => received.find((m) => m.to.includes('reader@example.com')));
    expect(mail.from).toBe('office@example.com');
    expect(mail.raw).toMatch(/^Subject: Your report is ready\r?$/m);
    expect(mail.raw).toMatch(/^From: Back Office <office@example\.com>\r?$/m);
    expect(mail.raw).toContain('Open the back office.');
    expect(
      await eventually(async () =>
        (await status(recipient, 'report.ready')) === 'sent' ? 'sent' : undefined,
      ),
    ).toBe('sent');
  });

  it('sends nothing when the recipient turned email off for that type', async () => {
    const recipient = randomUUID();
    people.set(recipient, 'quiet@example.com');
    await queryDatabase(
      dbUrl,
      `INSERT INTO notification_preferences (recipient_id, notification_type, channel, enabled) VALUES ($1, 'report.ready', 'email', false)`,
      [recipient],
    );
    const loud = randomUUID();
    people.set(loud, 'loud@example.com');
    await send([recipient, loud], 'report.ready', 'Muted?', 'x');
    await eventually(async () => received.find((m) => m.to.includes('loud@example.com')));
    expect(await status(recipient, 'report.ready')).toBe('disabled');
    expect(received.some((m) => m.to.includes('quiet@example.com'))).toBe(false);
  });

  it('marks an email failed for a recipient acl does not know', async () => {
    const stranger = randomUUID();
    await send([stranger], 'report.ready', 'Nobody', 'x');
    expect(
      await eventually(async () =>
        (await status(stranger, 'report.ready')) === 'failed' ? 'failed' : undefined,
      ),
    ).toBe('failed');
  });
});

describe('a dependency that does not answer (docs/api/contract.md §5)', () => {
  it('answers 503 upstream_unavailable when documents does not answer the document check', async () => {
    // This instance's NATS has no documents responder; acl's lookup is answered above.
    const group = randomUUID();
    const member = randomUUID();
    people.set(member, 'member@example.com');
    const token = mintToken(system().keys, { sub: randomUUID(), groups: [group] });
    const res = await call(appUrl, '/api/v1/chat/rooms', {
      token,
      json: { name: 'x', group_id: group, member_ids: [member], document_id: randomUUID() },
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
    const rooms = await queryDatabase<{ n: number }>(dbUrl, `SELECT count(*)::int AS n FROM chat_rooms`);
    expect(rooms[0].n).toBe(0);
  });
});
