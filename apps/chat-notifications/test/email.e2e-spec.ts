/**
 * Email delivery over real SMTP (./mail-stack.ts: a chat-notifications process with SMTP_URL
 * pointing at an `smtp-server` started here, its own database and NATS server, and a stand-in
 * for acl's `acl.users.get-many`); documents has no responder there: its check is a 503.
 */
import { randomUUID } from 'node:crypto';
import { call, eventually, isDefined, mintToken, queryDatabase } from '@media/testing';
import { startMailStack, type MailStack, type ReceivedMail } from './mail-stack';
import { system } from './support';

let stack: MailStack;
let appUrl: string;
let nc: MailStack['nc'];
let dbUrl: string;
let received: ReceivedMail[];
let people: Map<string, string>;

beforeAll(async () => {
  stack = await startMailStack({ name: 'email', recipientName: 'Mail Tester' });
  ({ nc, dbUrl, received, people } = stack);
  appUrl = await stack.boot();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
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
    const mail = await eventually(
      async () => received.find((m) => m.to.includes('reader@example.com')),
      isDefined,
      { timeoutMs: 8_000, orThrow: true },
    );
    expect(mail.from).toBe('office@example.com');
    expect(mail.raw).toMatch(/^Subject: Your report is ready\r?$/m);
    expect(mail.raw).toMatch(/^From: Back Office <office@example\.com>\r?$/m);
    expect(mail.raw).toContain('Open the back office.');
    expect(
      await eventually(
        async () => ((await status(recipient, 'report.ready')) === 'sent' ? 'sent' : undefined),
        isDefined,
        { timeoutMs: 8_000, orThrow: true },
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
    await eventually(async () => received.find((m) => m.to.includes('loud@example.com')), isDefined, {
      timeoutMs: 8_000,
      orThrow: true,
    });
    expect(await status(recipient, 'report.ready')).toBe('disabled');
    expect(received.some((m) => m.to.includes('quiet@example.com'))).toBe(false);
  });

  it('marks an email failed for a recipient acl does not know', async () => {
    const stranger = randomUUID();
    await send([stranger], 'report.ready', 'Nobody', 'x');
    expect(
      await eventually(
        async () => ((await status(stranger, 'report.ready')) === 'failed' ? 'failed' : undefined),
        isDefined,
        { timeoutMs: 8_000, orThrow: true },
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
