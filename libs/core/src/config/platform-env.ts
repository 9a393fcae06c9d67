import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { toBytes, toDuration, toInt } from './parsers';

const SIZE_MESSAGE = 'must be a size in bytes such as 1048576 or 1mb';
const URL_MESSAGE = (scheme: string) => `must be a ${scheme} URL`;

/**
 * The environment variables every app reads (docs/api/contract.md §6), named as they are set and validated
 * at boot. Code never reads these: it reads the typed, grouped `PlatformConfig` built from them.
 */
export class PlatformEnv {
  /** The app's HTTP port when it runs alone; `<APP>_PORT` (e.g. `CONTENT_PORT`) wins over it. */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer port' })
  @Min(0, { message: 'must be a port between 0 and 65535' })
  @Max(65535, { message: 'must be a port between 0 and 65535' })
  PORT!: number;

  /** The app's own PostgreSQL database (`postgres://user:pass@host:port/db`). */
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: URL_MESSAGE('postgres://') })
  DATABASE_URL!: string;

  /**
   * Connections per app process; replicas x DB_POOL_MAX must stay under the server's
   * max_connections. Two at least: a background job holds one for its lock while it works on another.
   */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer between 2 and 1000' })
  @Min(2, { message: 'must be an integer between 2 and 1000' })
  @Max(1000, { message: 'must be an integer between 2 and 1000' })
  DB_POOL_MAX: number = 10;

  /** A pooled connection idle this long is closed (the pool opens one again when it needs it). */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 30s' })
  @Min(1_000, { message: 'must be a duration of 1s or more' })
  DB_POOL_IDLE_TIMEOUT: number = 30_000;

  /** A statement running longer is cancelled (0 turns the limit off). Migrations run without it. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 30s' })
  @Min(0)
  DB_STATEMENT_TIMEOUT: number = 30_000;

  /** A session idle inside an open transaction this long is ended, releasing its locks (0: off). */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 60s' })
  @Min(0)
  DB_IDLE_IN_TRANSACTION_TIMEOUT: number = 60_000;

  /**
   * `nats://[user:pass@]host:port[,...]` (`tls://` for TLS), or `inproc` for the embedded
   * single-process bus.
   */
  @Matches(/^(inproc|(nats|tls):\/\/\S+)$/, {
    message: 'must be nats://host:port (comma-separated) or inproc',
  })
  NATS_URL!: string;

  /** A NATS `.creds` file (user JWT and nkey seed), for operator-mode servers. */
  @IsOptional()
  @IsString()
  NATS_CREDS_FILE?: string;

  /** CA bundle to verify the NATS server's certificate (turns TLS on). */
  @IsOptional()
  @IsString()
  NATS_TLS_CA_FILE?: string;

  /** Client certificate and key, for servers that verify clients (mutual TLS). */
  @IsOptional()
  @IsString()
  NATS_TLS_CERT_FILE?: string;

  /** The private key of `NATS_TLS_CERT_FILE`. */
  @IsOptional()
  @IsString()
  NATS_TLS_KEY_FILE?: string;

  /** Signs pagination cursors, so a changed cursor is refused (at least 32 characters). */
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  CURSOR_SECRET!: string;

  /** Where acl publishes its JWKS; every app verifies tokens against it. */
  @Matches(/^https?:\/\/\S+$/, { message: URL_MESSAGE('http(s)://') })
  JWT_JWKS_URL: string = 'http://127.0.0.1:3006/acl/.well-known/jwks.json';

  /**
   * Where acl publishes every key that ever signed an audit checkpoint (a JWKS); verify checks
   * checkpoints' signatures against it. Default: `audit-keys.json` beside JWT_JWKS_URL.
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: URL_MESSAGE('http(s)://') })
  AUDIT_KEYS_URL?: string;

  /**
   * How often the audit chain's head is checkpointed (signed by acl) when entries were sealed
   * since the last checkpoint; one replica at a time.
   */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 1m' })
  @Min(1_000, { message: 'must be at least 1s' })
  AUDIT_CHECKPOINT_INTERVAL: number = 60_000;

  /** The `iss` of access tokens: acl writes it, verifiers require it. */
  @IsString()
  JWT_ISSUER: string = 'media-backoffice-acl';

  /** The `aud` of access tokens: acl writes it, verifiers require it. */
  @IsString()
  JWT_AUDIENCE: string = 'media-backoffice';

  /** Access-token lifetime: acl issues tokens for this long, verifiers refuse longer-lived ones. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 900, 15m, 24h or 7d' })
  @Min(1000, { message: 'must be at least 1s' })
  JWT_ACCESS_TTL: number = 15 * 60_000;

  /** Clock difference tolerated on a token's `iat`. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 30s' })
  @Min(0)
  JWT_CLOCK_SKEW: number = 30_000;

  @Transform(toBytes)
  @IsInt({ message: SIZE_MESSAGE })
  @Min(1, { message: SIZE_MESSAGE })
  BODY_LIMIT: number = 1024 * 1024;

  @Transform(toBytes)
  @IsInt({ message: SIZE_MESSAGE })
  @Min(1, { message: SIZE_MESSAGE })
  UPLOAD_LIMIT: number = 50 * 1024 * 1024;

  /** Deadline of a NATS request to another app; past it the caller answers 503 `upstream_unavailable`. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 2000, 2s or 1m' })
  @Min(1)
  NATS_REQUEST_TIMEOUT: number = 2000;

  /**
   * Prepended to every durable consumer name: two deployments (or two test runs) sharing one
   * NATS server then keep separate consumers.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{0,64}$/, { message: 'must be up to 64 letters, digits, _ or -' })
  EVENTS_CONSUMER_PREFIX?: string;

  /** Deliveries of one event to one handler before it is dead-lettered. */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer between 1 and 1000' })
  @Min(1, { message: 'must be an integer between 1 and 1000' })
  @Max(1000, { message: 'must be an integer between 1 and 1000' })
  EVENTS_MAX_DELIVER: number = 10;

  /** First redelivery delay after a handler failure; it doubles per attempt, up to 5 minutes. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 1s' })
  @Min(1)
  EVENTS_RETRY_DELAY: number = 1_000;

  /**
   * A durable consumer with events pending and no progress for this long is reported stalled
   * (readiness detail, `events_consumer_stalled_seconds`); readiness does not fail for it. A
   * failover stalls consumers 5-16 s, so 20 s is past what a working cluster does.
   */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 20s' })
  @Min(1_000, { message: 'must be at least 1s' })
  EVENTS_STALL_AFTER: number = 20_000;

  /** Replicas of the JetStream events stream (3 in a production cluster). */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer between 1 and 5' })
  @Min(1, { message: 'must be an integer between 1 and 5' })
  @Max(5, { message: 'must be an integer between 1 and 5' })
  EVENTS_REPLICAS: number = 1;

  /** How long the stream keeps events (an app down for less catches up). */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 7d' })
  @Min(60_000, { message: 'must be at least 1m' })
  EVENTS_MAX_AGE: number = 7 * 86_400_000;

  /** Largest size of the JetStream events stream; the oldest events go first beyond it. */
  @Transform(toBytes)
  @IsInt({ message: SIZE_MESSAGE })
  @Min(1024 * 1024, { message: 'must be at least 1mb' })
  EVENTS_MAX_BYTES: number = 1024 ** 3;

  /** Publishes of one event id within this window are stored once. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 2m' })
  @Min(1_000, { message: 'must be at least 1s' })
  EVENTS_DUPLICATE_WINDOW: number = 2 * 60_000;

  /**
   * Published outbox rows and processed-event records older than this are deleted. Longer than
   * EVENTS_MAX_AGE, so an event the stream can still redeliver is still known as processed.
   */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 8d' })
  @Min(60_000, { message: 'must be at least 1m' })
  EVENTS_RETENTION: number = 8 * 86_400_000;

  /**
   * How long audit entries are kept (e.g. 400d); unset keeps them for ever. Pruning deletes the
   * entries up to the newest checkpoint older than this and the checkpoints before it, so the
   * chain still verifies from that checkpoint, the oldest one kept.
   */
  @IsOptional()
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 400d' })
  @Min(60_000, { message: 'must be at least 1m' })
  AUDIT_RETENTION?: number;

  /** How often the sealer looks for audit entries to seal (it seals each within this and a pass). */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 250ms' })
  @Min(10, { message: 'must be at least 10ms' })
  @Max(1_000, { message: 'must be at most 1s (entries are visible within 2 s)' })
  AUDIT_SEAL_INTERVAL: number = 250;

  /**
   * pino level (`trace` .. `fatal`); logs are JSON lines with `app`, `request_id`, `user_id` and the latency. An app alone in its process writes them a few KB at a time (at the latest every 250 ms, and at exit).
   */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** `false` turns off the HTTP request metrics and `/<prefix>/metrics` (for measuring their cost). */
  @IsIn(['true', 'false'])
  METRICS_ENABLED: string = 'true';

  /** OTLP/HTTP collector (e.g. `http://jaeger:4318`); tracing is off when unset. The other OTEL_* variables apply as usual. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: URL_MESSAGE('http(s)') })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** Proxies (CIDR list, or loopback/linklocal/uniquelocal) whose X-Forwarded-* are believed. */
  @IsString()
  TRUSTED_PROXIES: string = 'loopback';

  /** How long a client may take to send a request's headers (slowloris), as at the gateway. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 10s' })
  @Min(1, { message: 'must be a duration such as 10s' })
  HEADERS_TIMEOUT: number = 10_000;

  /** How long a client may take to send a whole request, body included (0: no limit). */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 5m' })
  @Min(0, { message: 'must be a duration such as 5m' })
  REQUEST_TIMEOUT: number = 300_000;

  /**
   * How long a keep-alive connection may stay idle between requests (Node's default, 5 s).
   * Longer than the gateway's pool keeps an idle connection (4 s), so the app never closes one
   * the gateway is about to reuse.
   */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 5s' })
  @Min(1, { message: 'must be a duration such as 5s' })
  IDLE_TIMEOUT: number = 5_000;

  /**
   * How long the 2xx answer to a request with an `Idempotency-Key` is kept and replayed to a retry
   * with the same key (docs/api/contract.md §7.1); expired keys are deleted periodically.
   */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 24h' })
  @Min(1_000, { message: 'must be at least 1s' })
  IDEMPOTENCY_TTL: number = 24 * 3_600_000;

  /** How long SIGTERM waits for in-flight requests before the process stops anyway. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 10000, 10s or 1m' })
  @Min(0, { message: 'must be a duration such as 10000, 10s or 1m' })
  SHUTDOWN_TIMEOUT: number = 10_000;
}
