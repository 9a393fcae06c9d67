import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Min, MinLength } from 'class-validator';
import {
  defineConfig,
  parseDuration,
  platformConfig,
  PlatformEnv,
  toDuration,
  type ConfigOf,
} from '@media/core';

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
   * The public origin (the gateway's, e.g. `https://backoffice.example.com`). The gateway starts
   * absolute URLs (pagination links) with it and always serves its host (ALLOWED_HOSTS);
   * chat-notifications starts the links in digests and quiet-hours summaries with it. Unset: the
   * request's host (gateway), paths (email links).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+\/?$/, { message: 'must be an http:// or https:// origin' })
  PUBLIC_URL?: string;

  /** How long a read or archived inbox entry is kept (docs/operations/capacity.md). */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(60_000, { message: 'must be at least 1m' })
  NOTIFICATION_RETENTION: number = 30 * 86_400_000;

  /** How long any inbox entry is kept, read or not (at least NOTIFICATION_RETENTION). */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(60_000, { message: 'must be at least 1m' })
  NOTIFICATION_UNREAD_RETENTION: number = 90 * 86_400_000;

  /** How often entries past their retention are deleted. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  NOTIFICATION_RETENTION_INTERVAL: number = 60 * 60_000;

  /**
   * The key webhook endpoint secrets are encrypted with (AES-256-GCM): 32 bytes as 64 hex digits
   * or as base64. Unset: creating an endpoint or rotating its secret answers 503, and nothing is
   * delivered (`npm start` generates one into its data directory).
   */
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'must be 32 bytes as 64 hex digits or base64',
  })
  WEBHOOK_SECRETS_KEY?: string;

  /** How long after a rotation deliveries are signed with both the old and the new secret. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(0, { message: 'must not be negative' })
  WEBHOOK_SECRET_OVERLAP: number = 24 * 3_600_000;

  /** How long an endpoint has to answer a delivery (connect, send, answer) before it counts as failed. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(100, { message: 'must be at least 100ms' })
  WEBHOOK_TIMEOUT: number = 15_000;

  /**
   * The waits before each retry of a failed delivery, comma-separated durations; after the last
   * one fails the message is `failed`.
   */
  @Transform(toSchedule)
  @IsInt({ each: true, message: 'must be comma-separated durations such as 5s,5m,30m' })
  @Min(0, { each: true, message: 'must be comma-separated durations such as 5s,5m,30m' })
  WEBHOOK_RETRY_SCHEDULE: number[] = [
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
  ];

  /** An endpoint whose every delivery failed for this long is disabled and its admins told. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  WEBHOOK_DISABLE_AFTER: number = 5 * 86_400_000;

  /**
   * How long received events are kept for replay; older ones (and their messages and attempts)
   * are deleted once no delivery of them is pending.
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(60_000, { message: 'must be at least 1m' })
  WEBHOOK_RETENTION: number = 30 * 86_400_000;

  /** `true`: endpoint URLs may be `http://` (not only `https://`). */
  @IsIn(['true', 'false'])
  WEBHOOKS_ALLOW_HTTP: 'true' | 'false' = 'false';

  /**
   * `true`: endpoints may resolve to loopback, private, link-local, multicast or unspecified
   * addresses (receivers on the same machine or network); refused otherwise, at creation and
   * against the address each delivery connects to.
   */
  @IsIn(['true', 'false'])
  WEBHOOKS_ALLOW_PRIVATE: 'true' | 'false' = 'false';
}

/** `5s,5m,30m` -> milliseconds; anything unreadable is left for the validator to name. */
function toSchedule({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const parts = value.split(',').map((part) => parseDuration(part));
  return value.trim() !== '' && parts.every((ms) => ms !== undefined) ? parts : [value];
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
  retention: {
    read: env.NOTIFICATION_RETENTION,
    unread: Math.max(env.NOTIFICATION_RETENTION, env.NOTIFICATION_UNREAD_RETENTION),
    interval: env.NOTIFICATION_RETENTION_INTERVAL,
  },
  realtime: { resumeWindow: env.WS_RESUME_WINDOW },
  webhooks: {
    secretsKey: env.WEBHOOK_SECRETS_KEY
      ? Buffer.from(env.WEBHOOK_SECRETS_KEY, env.WEBHOOK_SECRETS_KEY.length === 64 ? 'hex' : 'base64')
      : undefined,
    secretOverlap: env.WEBHOOK_SECRET_OVERLAP,
    timeout: env.WEBHOOK_TIMEOUT,
    retrySchedule: env.WEBHOOK_RETRY_SCHEDULE,
    disableAfter: env.WEBHOOK_DISABLE_AFTER,
    retention: env.WEBHOOK_RETENTION,
    allowHttp: env.WEBHOOKS_ALLOW_HTTP === 'true',
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
  },
}));

/** chat-notifications's typed config. */
export type ChatNotificationsConfig = ConfigOf<typeof chatNotificationsConfig>;
