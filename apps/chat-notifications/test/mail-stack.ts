/**
 * chat-notifications with real email, for the tests that need an SMTP server they control: an
 * `smtp-server` started here, a nats-server of its own (`startNats`, so that no replica of the
 * main stack, booted without SMTP_URL, takes the work), a database of its own, and a stand-in for
 * acl's `acl.users.get-many` answering with the recipients the test names in `people`.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  spawnDist,
  standInAclUsers,
  startNats,
  waitReady,
  type DistProcess,
  type PrivateNats,
} from '@media/testing';
import { SMTPServer } from 'smtp-server';
import { system } from './support';

/** A message as the SMTP server took it in. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The replica that sent it: the name it greeted with (`replica-1`, `replica-2`, … in boot order). */
  via: string;
}

export interface MailStackOptions {
  /** Part of the database's name. */
  name: string;
  /** The name the acl stand-in gives every recipient. */
  recipientName: string;
  /**
   * Sees each message once it is in; true when the test answers it itself later (`reply`), else
   * the server answers "250 OK" at once.
   */
  hold?: (mail: ReceivedMail, reply: () => void) => boolean;
}

export interface MailStack {
  natsUrl: string;
  /** A connection to the stack's NATS, for requests and events. */
  nc: NatsConnection;
  dbUrl: string;
  /** Every message taken in, in order. */
  received: ReceivedMail[];
  /** The addresses the acl stand-in knows, by user id. */
  people: Map<string, string>;
  /** Starts a chat-notifications process on this stack (its first one runs the migrations); its URL once ready. */
  boot(env?: Record<string, string>): Promise<string>;
  /** The processes `boot` started, in order. */
  processes: DistProcess[];
  stop(): Promise<void>;
}

export async function startMailStack(options: MailStackOptions): Promise<MailStack> {
  const received: ReceivedMail[] = [];
  const people = new Map<string, string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
          via: session.hostNameAppearsAs,
        };
        received.push(mail);
        if (!options.hold?.(mail, () => callback())) callback();
      });
    },
  });
  const smtpPort = await freePort();
  smtp.listen(smtpPort, '127.0.0.1');
  await once(smtp.server, 'listening');

  const nats: PrivateNats = await startNats();
  const nc = await connect({ servers: nats.url });
  await standInAclUsers(nc, (id) => {
    const email = people.get(id);
    return email === undefined ? undefined : { email, name: options.recipientName, status: 'ACTIVE' };
  });

  const dbName = `e2e_chat_${options.name}_${randomBytes(4).toString('hex')}`;
  await createDatabases([dbName]);
  const dbUrl = databaseUrl(dbName);
  const processes: DistProcess[] = [];

  return {
    natsUrl: nats.url,
    nc,
    dbUrl,
    received,
    people,
    processes,
    async boot(env = {}) {
      const port = await freePort();
      const replica = spawnDist('chat-notifications', {
        ...system().env,
        DATABASE_URL: dbUrl,
        NATS_URL: nats.url,
        CHAT_NOTIFICATIONS_PORT: String(port),
        // Each replica greets with a name of its own, so a message tells which one sent it.
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}/?name=replica-${processes.length + 1}`,
        MAIL_FROM: 'Back Office <office@example.com>',
        ...env,
      });
      processes.push(replica);
      await waitReady(`http://127.0.0.1:${port}/api/health/ready`, replica, 90_000);
      return `http://127.0.0.1:${port}`;
    },
    async stop() {
      await Promise.all(processes.map((p) => p.stop()));
      await nc.close();
      await nats.stop();
      await new Promise<void>((done) => smtp.close(() => done()));
      await dropDatabases([dbName]);
    },
  };
}
