import { IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { PlatformConfig } from '@media/platform';

/** chat-notifications's configuration: the platform's variables plus mail (CONTRACT §6). */
export class ChatNotificationsConfig extends PlatformConfig {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset: email deliveries are recorded as skipped. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** The From header of notification emails. */
  @IsString()
  @MinLength(3)
  MAIL_FROM: string = 'Media back office <no-reply@media.localhost>';
}
