import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@media/platform';
import nodemailer, { type Transporter } from 'nodemailer';
import type { ChatNotificationsConfig } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Email over SMTP (`SMTP_URL`, `MAIL_FROM`); without SMTP_URL it is disabled, never silent. */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport?: Transporter;

  constructor(@InjectConfig() private readonly config: ChatNotificationsConfig) {
    if (config.mail.smtpUrl) this.transport = nodemailer.createTransport(config.mail.smtpUrl);
  }

  get enabled(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new Error('SMTP is not configured');
    await this.transport.sendMail({ from: this.config.mail.from, ...mail });
    this.logger.log({ to: mail.to, subject: mail.subject }, 'email sent');
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
