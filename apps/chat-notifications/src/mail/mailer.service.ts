import { connect, type Socket } from 'node:net';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@media/kernel';
import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { ChatNotificationsConfig } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** `<id@domain>`: the same for every attempt of one email, so a repeat is recognisable. */
  messageId: string;
}

/** Email over SMTP (`SMTP_URL`, `MAIL_FROM`); without SMTP_URL it is disabled, never silent. */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport?: Transporter;
  /** The SMTP connections open now, so that `cut()` can end the sends under way. */
  private readonly sockets = new Set<Socket>();
  /** The domain of MAIL_FROM's address, for Message-IDs. */
  readonly domain: string;

  constructor(@InjectConfig() private readonly config: ChatNotificationsConfig) {
    const { smtpUrl, timeout } = config.mail;
    if (smtpUrl) {
      // nodemailer's own defaults let a silent server hold a send for up to 10 minutes.
      // (Options next to `url` would be dropped: nodemailer then reads the URL alone.)
      this.transport = nodemailer.createTransport({
        ...parseConnectionUrl(smtpUrl),
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        // The connection is opened here (nodemailer then speaks SMTP, and TLS for smtps://, on it)
        // so that it can be closed from outside: a shutdown does not wait on a stalled server.
        getSocket: (options: SMTPTransport.Options, done: (error: Error | null, socket: unknown) => void) => {
          const socket = connect({
            host: options.host ?? 'localhost',
            // nodemailer's own defaults for an URL without a port.
            port: options.port ?? (options.secure ? 465 : 587),
          });
          this.sockets.add(socket);
          socket.once('close', () => this.sockets.delete(socket));
          socket.setTimeout(timeout, () => socket.destroy(new Error('SMTP connection timed out')));
          const failed = (error: Error) => done(error, false);
          socket.once('error', failed);
          socket.once('connect', () => {
            socket.setTimeout(0);
            socket.off('error', failed);
            done(null, { connection: socket });
          });
        },
      });
    }
    const address = /<([^>]+)>/.exec(config.mail.from)?.[1] ?? config.mail.from;
    this.domain = /@([^\s@>]+)$/.exec(address.trim())?.[1] ?? 'chat-notifications.invalid';
  }

  get enabled(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new Error('SMTP is not configured');
    const { messageId, ...rest } = mail;
    await this.transport.sendMail({ from: this.config.mail.from, messageId, ...rest });
    this.logger.log({ to: mail.to, subject: mail.subject, message_id: messageId }, 'email sent');
  }

  /**
   * Ends every send under way by closing its connection before the server's final answer: an
   * email cut so was not accepted by the server, and stays to be sent again (with the same
   * Message-ID). For a shutdown that cannot wait for a slow server.
   */
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  onApplicationShutdown(): void {
    this.transport?.close();
    this.cut();
  }
}
