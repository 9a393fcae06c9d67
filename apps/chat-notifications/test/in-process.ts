/**
 * chat-notifications booted in-process (integration tests), as many replicas as a test asks,
 * on one fresh database, a private nats-server (acl's `acl.users.get-many` answered here) and
 * a real SMTP server (`smtp-server`) that records what it receives. Each replica's ClockService
 * is replaced in-process by one controlled clock the test sets: there is no setting or hook for
 * it in the app.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createApp } from '@media/platform';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  generateTestKeys,
  mintToken,
  queryDatabase,
  standInAclUsers,
  standInProfile,
  startJwks,
  startNats,
  type ApiResponse,
  type PrivateNats,
} from '@media/testing';
import { SMTPServer } from 'smtp-server';
import { DataSource } from 'typeorm';
import { chatNotificationsApp } from '../src/app.definition';
import { ClockService } from '../src/quiet-hours/clock.service';
import { DeliveryWorker } from '../src/notifications/delivery.worker';
import { NotifierService, type NewNotification } from '../src/notifications/notifier.service';

export interface Mail {
  to: string;
  subject: string;
  /** Headers and body, quoted-printable soft breaks undone. */
  text: string;
}

export class Harness {
  readonly keys = generateTestKeys();
  readonly database = `e2e_${Date.now()}_${randomBytes(3).toString('hex')}_chat_int`;
  readonly mails: Mail[] = [];
  /** The controlled time every replica decides quiet hours and digests by. */
  now = new Date('2026-06-10T12:00:00Z');
  private nats!: PrivateNats;
  private nc!: NatsConnection;
  private smtp!: SMTPServer;
  private smtpPort = 0;
  private jwks!: { url: string; close: () => void };
  private readonly apps: { app: INestApplication; base: string }[] = [];
  private readonly secret = randomBytes(32).toString('hex');

  async start(): Promise<void> {
    this.nats = await startNats();
    this.jwks = await startJwks(this.keys);
    await createDatabases([this.database]);
    this.nc = await connect({ servers: this.nats.url });
    await standInAclUsers(this.nc, standInProfile('Tester'));
    this.smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks)
            .toString()
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          for (const to of session.envelope.rcptTo) {
            this.mails.push({ to: to.address, subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '', text: raw });
          }
          callback();
        });
      },
    });
    this.smtpPort = await freePort();
    this.smtp.listen(this.smtpPort, '127.0.0.1');
    await once(this.smtp.server, 'listening');
  }

  /** One more replica on the same database, NATS and SMTP, with the controlled clock. */
  async boot(): Promise<INestApplication> {
    const port = await freePort();
    const app = await createApp(
      chatNotificationsApp,
      {
        PORT: String(port),
        DATABASE_URL: databaseUrl(this.database),
        NATS_URL: this.nats.url,
        CURSOR_SECRET: this.secret,
        JWT_JWKS_URL: this.jwks.url,
        LOG_LEVEL: 'silent',
        NATS_REQUEST_TIMEOUT: '2s',
        SMTP_URL: `smtp://127.0.0.1:${this.smtpPort}`,
        SMTP_TIMEOUT: '5s',
        PUBLIC_URL: 'https://backoffice.example.com',
      },
      { host: '127.0.0.1' },
    );
    jest.spyOn(app.get(ClockService), 'now').mockImplementation(() => new Date(this.now));
    this.apps.push({ app, base: `http://127.0.0.1:${port}` });
    return app;
  }

  async stop(): Promise<void> {
    for (const { app } of this.apps.splice(0)) await app.close();
    await new Promise<void>((resolve) => this.smtp?.close(() => resolve()));
    await this.nc?.close();
    this.jwks?.close();
    await this.nats?.stop();
    await dropDatabases([this.database]);
  }

  /** A request to the first replica, as `user`. */
  api<T = any>(
    user: string,
    path: string,
    init: { method?: string; json?: unknown } = {},
  ): Promise<ApiResponse<T>> {
    return call<T>(this.apps[0].base, path, {
      ...init,
      token: mintToken(this.keys, { sub: user, permissions: [] }),
    });
  }

  /** Entries written as another feature writes them: through the notifier, in a transaction. */
  async notify(input: NewNotification): Promise<void> {
    const { app } = this.apps[0];
    await app.get(DataSource).transaction((manager) => app.get(NotifierService).notify(manager, input));
  }

  /** One delivery round on every replica at once (what their timers do, awaited). */
  async roundEverywhere(): Promise<void> {
    await Promise.all(this.apps.map(({ app }) => app.get(DeliveryWorker).deliverRound()));
  }

  rows(user: string): Promise<{ title: string; email_status: string; websocket_status: string }[]> {
    return queryDatabase(
      databaseUrl(this.database),
      `SELECT title, email_status, websocket_status FROM notifications WHERE recipient_id = $1 ORDER BY created_at`,
      [user],
    );
  }

  mailsTo(user: string): Mail[] {
    return this.mails.filter((m) => m.to === `${user}@example.com`);
  }
}
