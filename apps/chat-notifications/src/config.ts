import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Min, MinLength } from 'class-validator';
import { defineConfig, platformConfig, PlatformEnv, toDuration, type ConfigOf } from '@media/platform';

const DURATION = 'must be a duration such as 30s or 5m';

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

  /**
   * How long the SMTP server may keep silent (connecting, greeting, any reply) before a send is
   * given up and retried later.
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  SMTP_TIMEOUT: number = 30_000;

  /**
   * How long a replica holds the emails it claimed: no other replica sends them meanwhile. A send
   * starts only while enough of the lease is left to finish it (see the delivery worker).
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(10_000, { message: 'must be at least 10s' })
  EMAIL_LEASE: number = 5 * 60_000;

  /**
   * How long after posting a message its sender may edit or delete it (docs/api/contract.md
   * §7.4); an ADMIN of a GROUP room may delete any message at any time.
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  CHAT_EDIT_WINDOW: number = 15 * 60_000;

  /**
   * How long websocket frames are kept for a client that reconnects with `?resume=<seq>`
   * (docs/api/chat-notifications.md, "Reliable delivery"); an older `seq` gets a `resync` frame.
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  WS_RESUME_WINDOW: number = 5 * 60_000;

  /**
   * The public origin (the gateway's, e.g. `https://backoffice.example.com`) that links in
   * digests and quiet-hours summaries start with; unset: the links are paths.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+\/?$/, { message: 'must be an http:// or https:// origin' })
  PUBLIC_URL?: string;
}

export const chatNotificationsConfig = defineConfig(ChatNotificationsEnv, (env) => ({
  ...platformConfig(env),
  mail: {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    timeout: env.SMTP_TIMEOUT,
    lease: env.EMAIL_LEASE,
    publicUrl: env.PUBLIC_URL,
  },
  chat: { editWindow: env.CHAT_EDIT_WINDOW },
  realtime: { resumeWindow: env.WS_RESUME_WINDOW },
}));

/** chat-notifications's typed config. */
export type ChatNotificationsConfig = ConfigOf<typeof chatNotificationsConfig>;
