import { IsOptional, IsString, Matches, MinLength } from 'class-validator';
import { defineConfig, platformConfig, PlatformEnv, type ConfigOf } from '@media/platform';

/** chat-notifications's variables: the platform's plus mail (docs/api/contract.md §6). */
export class ChatNotificationsEnv extends PlatformEnv {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset: email deliveries are recorded as skipped. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** The From header of notification emails. */
  @IsString()
  @MinLength(3)
  MAIL_FROM: string = 'Media back office <no-reply@media.localhost>';
}

export const chatNotificationsConfig = defineConfig(ChatNotificationsEnv, (env) => ({
  ...platformConfig(env),
  mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
}));

/** chat-notifications's typed config. */
export type ChatNotificationsConfig = ConfigOf<typeof chatNotificationsConfig>;
