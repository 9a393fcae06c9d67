import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { MailerService } from './mailer.service';

/** The SMTP connection every email goes out through (one entry's email, a summary, a digest). */
@Feature({})
@Module({
  providers: [MailerService],
  exports: [MailerService],
})
export class MailModule {}
