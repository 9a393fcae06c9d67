import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { QuietHoursDigests1764800000022 } from '../database/migrations/1764800000022-quiet-hours-digests';
import { MailModule } from '../mail/mail.module';
import { QuietHoursModule } from '../quiet-hours/quiet-hours.module';
import { SettingsModule } from '../settings/settings.module';
import { DigestService } from './digest.service';

/**
 * What a user's settings do to delivery (docs/api/contract.md §7.3): pushes and emails held
 * during quiet hours, emails kept for the daily digest, and the summary emails that send them.
 */
@Feature({ migrations: [QuietHoursDigests1764800000022] })
@Module({
  imports: [QuietHoursModule, SettingsModule, MailModule],
  providers: [DigestService],
  exports: [DigestService],
})
export class DigestModule {}
