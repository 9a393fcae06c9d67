/**
 * Background work of chat-notifications that must neither double nor loop: email sent
 * outside any transaction with a stable Message-ID, consumed events validated (a malformed one
 * dead-lettered once), and a document deleted while a room is being created never left dangling.
 *
 * Two chat-notifications processes run here on their own database and their own nats-server,
 * with SMTP_URL pointing at an `smtp-server` this test controls; acl's `acl.users.get-many` and
 * documents' `documents.documents.get` are answered by this test on that server.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { call, eventually, isDefined, mintToken, queryDatabase } from '@media/testing';
import { startMailStack, type MailStack, type ReceivedMail } from './mail-stack';
import { system } from './support';

/** Recipients whose first email the SMTP server takes in but never answers. */
const stallFirst = new Set<string>();
const stalled = new Map<string, () => void>();
/** Documents that exist, and a hook run while one of them is being checked. */
const documents = new Set<string>();
const duringCheck = new Map<string, () => Promise<void>>();
/** While set, the first message for one of `recipients` is held unanswered until `release()`. */
let holdOne: { recipients: Set<string>; via?: string; release?: () => void } | undefined;

let stack: MailStack;
let nc: MailStack['nc'];
let dbUrl: string;
let received: ReceivedMail[];
let people: Map<string, string>;
let appUrl: string;

const header = (raw: string, name: string) =>
  new RegExp(`^${name}: *(.*?)\\r?$`, 'mi').exec(raw)?.[1]?.trim();

beforeAll(async () => {
  stack = await startMailStack({
    name: 'background',
    recipientName: 'Background Tester',
    // The message is in, but its "250 OK" never comes: the sender's timeout decides.
    hold: (mail, reply) => {
      if (holdOne && !holdOne.release && mail.to.some((address) => holdOne?.recipients.has(address))) {
        Object.assign(holdOne, { via: mail.via, release: reply });
        return true;
      }
      const held = mail.to.find((address) => stallFirst.delete(address));
      if (!held) return false;
      stalled.get(held)?.();
      return true;
    },
  });
  ({ nc, dbUrl, received, people } = stack);
  // documents' `documents.documents.get`, answered here (a stand-in whose answer a test can delay).
  nc.subscribe('documents.documents.get', {
    callback: (_error, message) => {
      void (async () => {
        const packet = message.json<{ id: string; data: { data: { id: string } } }>();
        const id = packet.data.data.id;
        await duringCheck.get(id)?.();
        const response = documents.has(id)
          ? {
              id,
              filename: 'a.pdf',
              content_type: 'application/pdf',
              size: 1,
              sha256: '0'.repeat(64),
              uploaded_by: randomUUID(),
              created_at: new Date().toISOString(),
            }
          : null;
        message.respond(JSON.stringify({ id: packet.id, response, isDisposed: true }));
      })();
    },
  });
  const env = {
    SMTP_TIMEOUT: '3s',
    // The race test's documents answer waits for an event to be applied first.
    NATS_REQUEST_TIMEOUT: '10s',
  };
  // One replica first (it runs the migrations), then the second.
  appUrl = await stack.boot(env);
  await stack.boot(env);
}, 200_000);

afterAll(async () => {
  await stack?.stop();
});

async function notify(recipients: string[], title: string): Promise<void> {
  const packet = {
    id: randomUUID(),
    pattern: 'notifications.send',
    data: {
      data: { recipient_ids: recipients, notification_type: 'report.ready', title, body: 'x' },
      meta: {},
    },
  };
  const reply = await nc.request('notifications.send', JSON.stringify(packet), { timeout: 5000 });
  expect(reply.json<{ response: unknown }>().response).toEqual({ delivered: recipients.length });
}

async function publishEvent(subject: string, data: unknown, id: string = randomUUID()): Promise<string> {
  const envelope = { id, subject, occurred_at: new Date().toISOString(), data, meta: {} };
  await jetstream(nc).publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
  return id;
}

const processed = (eventId: string, consumer: string) =>
  queryDatabase(dbUrl, `SELECT 1 FROM processed_events WHERE event_id = $1 AND consumer = $2`, [
    eventId,
    consumer,
  ]).then((rows) => (rows.length > 0 ? true : undefined));

const person = (tag: string) => {
  const id = randomUUID();
  const address = `${tag}-${id.slice(0, 8)}@example.com`;
  people.set(id, address);
  return { id, address };
};

describe('email delivery', () => {
  it('holds no transaction or row lock while SMTP stalls, and the retry after the timeout reuses the Message-ID', async () => {
    const reader = person('stall');
    stallFirst.add(reader.address);
    const stall = new Promise<number>((resolve) => stalled.set(reader.address, () => resolve(Date.now())));
    await notify([reader.id], 'Stalled report');
    const stalledAt = await stall;

    const [entry] = await queryDatabase<{ id: string }>(
      dbUrl,
      `SELECT id FROM notifications WHERE recipient_id = $1`,
      [reader.id],
    );
    // While the server sits on the message, no transaction of the app that began before the
    // send is still open (one of the app's own short ones may just be ending: it is waited for)...
    const spanning = () =>
      queryDatabase<{ n: number }>(
        dbUrl,
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
            AND xact_start <= to_timestamp($2::double precision / 1000)`,
        [new URL(dbUrl).pathname.slice(1), stalledAt],
      ).then((rows) => (rows[0].n === 0 ? 0 : undefined));
    expect(await eventually(spanning, isDefined, { timeoutMs: 2_000, orThrow: true })).toBe(0);
    // ...and the row is not locked: anyone may lock it at once.
    const lock = () =>
      queryDatabase(
        dbUrl,
        `BEGIN; SELECT id FROM notifications WHERE id = '${entry.id}' FOR UPDATE NOWAIT; ROLLBACK;`,
      ).then(
        () => 'free',
        () => undefined,
      );
    expect(await eventually(lock, isDefined, { timeoutMs: 2_000, orThrow: true })).toBe('free');

    // SMTP_TIMEOUT ends the stalled send; the retry is accepted.
    const copies = await eventually(
      async () => {
        const mine = received.filter((m) => m.to.includes(reader.address));
        return mine.length >= 2 ? mine : undefined;
      },
      isDefined,
      { timeoutMs: 30_000, orThrow: true },
    );
    const ids = copies.map((m) => header(m.raw, 'Message-ID'));
    expect(ids[0]).toBe(`<${entry.id}.email@example.com>`);
    expect(ids[1]).toBe(ids[0]);
    const [row] = await eventually(
      async () => {
        const rows = await queryDatabase<{ email_status: string; attempts: number }>(
          dbUrl,
          `SELECT email_status, attempts FROM notifications WHERE id = $1`,
          [entry.id],
        );
        return rows[0]?.email_status === 'sent' ? rows : undefined;
      },
      isDefined,
      { timeoutMs: 8_000, orThrow: true },
    );
    expect(row).toEqual({ email_status: 'sent', attempts: 1 });
  }, 60_000);

  it('sends each email once with two replicas running', async () => {
    const readers = Array.from({ length: 30 }, () => person('pair'));
    const addresses = new Set(readers.map((r) => r.address));
    const ours = () => received.filter((m) => m.to.some((address) => addresses.has(address)));
    // The first message in is held unanswered: the replica that sent it is stuck in its batch, so
    // the rest must go out through the other one.
    const held: NonNullable<typeof holdOne> = (holdOne = { recipients: addresses });
    await notify(
      readers.map((r) => r.id),
      'Once each',
    );
    const other = await eventually(
      async () => (held.via ? ours().find((m) => m.via !== held.via) : undefined),
      isDefined,
      { timeoutMs: 30_000, orThrow: 'a message from the other replica while the first one waits' },
    );
    holdOne = undefined;
    held.release?.();
    expect([held.via, other.via].sort()).toEqual(['replica-1', 'replica-2']);
    await eventually(
      async () => {
        const rows = await queryDatabase<{ n: number }>(
          dbUrl,
          `SELECT count(*)::int AS n FROM notifications WHERE recipient_id = ANY($1::uuid[]) AND email_status = 'sent'`,
          [readers.map((r) => r.id)],
        );
        return rows[0].n === readers.length ? true : undefined;
      },
      isDefined,
      { timeoutMs: 30_000, orThrow: true },
    );
    for (const reader of readers) {
      expect(received.filter((m) => m.to.includes(reader.address))).toHaveLength(1);
    }
  }, 60_000);
});

describe('consumed events are validated', () => {
  const consumer = (handler: string) => `chat-notifications:AppEventsConsumer.${handler}`;

  it.each([
    ['documents.document.deleted', 'documentDeleted', { document_id: 'not-a-uuid' }, 'data.document_id'],
    ['documents.document.deleted', 'documentDeleted', {}, 'data.document_id'],
    ['assignment.task.claimed', 'taskClaimed', { task_id: randomUUID(), assigned_to: 7 }, 'data.assigned_to'],
    ['chat.message.created', 'messageCreated', { room_id: randomUUID(), body: 'x' }, 'data.message_id'],
  ])(
    'dead-letters a malformed %s once, without retrying it (%#)',
    async (subject, handler, data, field) => {
      const bad = await publishEvent(subject, data);
      // A well-formed event published after it is applied: the consumer did not stall on the bad one.
      const good =
        subject === 'documents.document.deleted'
          ? await publishEvent(subject, { document_id: randomUUID(), uploaded_by: null })
          : subject === 'assignment.task.claimed'
            ? await publishEvent(subject, {
                task_id: randomUUID(),
                assigned_to: null,
                claimed_by: randomUUID(),
              })
            : await publishEvent(subject, {
                message_id: randomUUID(),
                room_id: randomUUID(),
                room_name: 'r',
                sender: randomUUID(),
                body: 'b',
                created_at: new Date().toISOString(),
                recipient_ids: [],
              });
      await eventually(() => processed(good, consumer(handler)), isDefined, {
        timeoutMs: 15_000,
        orThrow: true,
      });
      const letters = await eventually(
        async () => {
          const rows = await queryDatabase<{ consumer: string; error: string; deliveries: number }>(
            dbUrl,
            `SELECT consumer, error, deliveries FROM dead_letters WHERE event_id = $1`,
            [bad],
          );
          return rows.length > 0 ? rows : undefined;
        },
        isDefined,
        { timeoutMs: 8_000, orThrow: true },
      );
      expect(letters).toEqual([
        { consumer: consumer(handler), error: expect.stringContaining(field), deliveries: 1 },
      ]);
      // Acknowledged, never handed to the handler again.
      expect(await processed(bad, consumer(handler))).toBe(true);
    },
    30_000,
  );
});

describe('a document deleted while a room is being created', () => {
  it('never leaves the room pointing at the deleted document', async () => {
    const group = randomUUID();
    const token = mintToken(system().keys, { sub: randomUUID(), groups: [group] });
    const doc = randomUUID();
    documents.add(doc);
    // Documents confirms the document, but its deletion is applied by chat before the answer.
    duringCheck.set(doc, async () => {
      const event = await publishEvent('documents.document.deleted', { document_id: doc, uploaded_by: null });
      await eventually(
        () => processed(event, 'chat-notifications:AppEventsConsumer.documentDeleted'),
        isDefined,
        { timeoutMs: 15_000, orThrow: true },
      );
    });
    const res = await call(appUrl, '/api/v1/chat/rooms', {
      token,
      json: { name: 'Race', group_id: group, document_id: doc },
    });
    const dangling = await queryDatabase<{ n: number }>(
      dbUrl,
      `SELECT count(*)::int AS n FROM chat_rooms WHERE document_id = $1`,
      [doc],
    );
    expect(dangling[0].n).toBe(0);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'document_id'] })]);
  }, 30_000);
});
