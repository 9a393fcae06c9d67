import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@media/platform';
import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
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

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
