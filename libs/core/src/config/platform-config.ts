import type { PlatformEnv } from './platform-env';

/**
 * What every app is configured with, typed and grouped, as code reads it. Built once at boot
 * from the validated `PlatformEnv`; an app's own config extends it (see `defineConfig`).
 */
export interface PlatformConfig {
  port: number;
  database: DatabaseConfig;
  nats: NatsConfig;
  auth: AuthConfig;
  limits: {
    /** Largest JSON / urlencoded body, and largest form field, in bytes. */
    body: number;
    /** Largest multipart upload, in bytes. */
    upload: number;
  };
  /** Signs pagination cursors (HMAC). */
  cursorSecret: string;
  events: EventsConfig;
  log: { level: string };
  metrics: { enabled: boolean };
  tracing: { otlpEndpoint: string | undefined };
  /** Proxies whose X-Forwarded-* are believed (CIDR list or loopback/linklocal/uniquelocal). */
  trustedProxies: string;
  /** How long SIGTERM waits for in-flight requests, in ms. */
  shutdownTimeout: number;
  /** The HTTP server's timeouts, in ms (see `HttpTimeouts`). */
  http: HttpTimeouts;
  idempotency: IdempotencyConfig;
  audit: AuditConfig;
}

/** The audit trail (CONTRACT §8). */
export interface AuditConfig {
  /** ms entries are kept; undefined keeps them for ever. */
  retention: number | undefined;
  /** ms between the sealer's passes. */
  sealInterval: number;
  /** acl's `audit-keys.json`: every key that ever signed a checkpoint. */
  keysUrl: string;
  /** Between two checkpoints, in ms. */
  checkpointInterval: number;
}

/** Idempotency keys (docs/api/contract.md §7.1). */
export interface IdempotencyConfig {
  /** How long a 2xx answer is kept for its key, in ms. */
  ttl: number;
  /** A key in flight for longer (its request crashed or was cut) is free again, in ms: the request timeout. */
  inFlightTimeout: number;
}

/** The in-flight limit when REQUEST_TIMEOUT is 0 (no limit on receiving a request). */
const DEFAULT_IN_FLIGHT_TIMEOUT = 300_000;

export interface HttpTimeouts {
  /** Receiving a request's headers. */
  headers: number;
  /** Receiving a whole request (0: no limit). */
  request: number;
  /** A keep-alive connection idle between requests. */
  idle: number;
}

export interface DatabaseConfig {
  url: string;
  /** Connections per process. */
  poolMax?: number;
  /** ms a pooled connection may stay idle before it is closed. */
  poolIdleTimeout?: number;
  /** ms; 0 turns the limit off. */
  statementTimeout?: number;
  /** ms; 0 turns the limit off. */
  idleInTransactionTimeout?: number;
}

export interface NatsConfig {
  /** `nats://…` servers (comma-separated) or `inproc`. */
  url: string;
  /** How long a request waits for its reply, in ms. */
  requestTimeout: number;
  /** A `.creds` file (user JWT and nkey seed). */
  credsFile?: string;
  tls: { caFile?: string; certFile?: string; keyFile?: string };
}

export interface AuthConfig {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** Access-token lifetime, in ms: issued for this long, longer-lived tokens refused. */
  accessTtl: number;
  /** Clock difference tolerated on `iat`, in ms. */
  clockSkew: number;
}

export interface EventsConfig {
  consumerPrefix: string | undefined;
  maxDeliver: number;
  /** ms; doubles per attempt. */
  retryDelay: number;
  replicas: number;
  /** ms */
  maxAge: number;
  maxBytes: number;
  /** ms */
  duplicateWindow: number;
  /** ms */
  retention: number;
  /** ms: pending and not progressing for this long is a stall. */
  stallAfter: number;
}

/** The typed config of the platform's variables. */
export function platformConfig(env: PlatformEnv): PlatformConfig {
  return {
    port: env.PORT,
    database: {
      url: env.DATABASE_URL,
      poolMax: env.DB_POOL_MAX,
      poolIdleTimeout: env.DB_POOL_IDLE_TIMEOUT,
      statementTimeout: env.DB_STATEMENT_TIMEOUT,
      idleInTransactionTimeout: env.DB_IDLE_IN_TRANSACTION_TIMEOUT,
    },
    nats: {
      url: env.NATS_URL,
      requestTimeout: env.NATS_REQUEST_TIMEOUT,
      credsFile: env.NATS_CREDS_FILE,
      tls: { caFile: env.NATS_TLS_CA_FILE, certFile: env.NATS_TLS_CERT_FILE, keyFile: env.NATS_TLS_KEY_FILE },
    },
    auth: {
      jwksUrl: env.JWT_JWKS_URL,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      accessTtl: env.JWT_ACCESS_TTL,
      clockSkew: env.JWT_CLOCK_SKEW,
    },
    limits: { body: env.BODY_LIMIT, upload: env.UPLOAD_LIMIT },
    cursorSecret: env.CURSOR_SECRET,
    events: {
      consumerPrefix: env.EVENTS_CONSUMER_PREFIX,
      maxDeliver: env.EVENTS_MAX_DELIVER,
      retryDelay: env.EVENTS_RETRY_DELAY,
      replicas: env.EVENTS_REPLICAS,
      maxAge: env.EVENTS_MAX_AGE,
      maxBytes: env.EVENTS_MAX_BYTES,
      duplicateWindow: env.EVENTS_DUPLICATE_WINDOW,
      retention: env.EVENTS_RETENTION,
      stallAfter: env.EVENTS_STALL_AFTER,
    },
    log: { level: env.LOG_LEVEL },
    metrics: { enabled: env.METRICS_ENABLED === 'true' },
    tracing: { otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT },
    trustedProxies: env.TRUSTED_PROXIES,
    shutdownTimeout: env.SHUTDOWN_TIMEOUT,
    http: { headers: env.HEADERS_TIMEOUT, request: env.REQUEST_TIMEOUT, idle: env.IDLE_TIMEOUT },
    idempotency: {
      ttl: env.IDEMPOTENCY_TTL,
      inFlightTimeout: env.REQUEST_TIMEOUT || DEFAULT_IN_FLIGHT_TIMEOUT,
    },
    audit: {
      retention: env.AUDIT_RETENTION,
      sealInterval: env.AUDIT_SEAL_INTERVAL,
      keysUrl: env.AUDIT_KEYS_URL ?? new URL('audit-keys.json', env.JWT_JWKS_URL).toString(),
      checkpointInterval: env.AUDIT_CHECKPOINT_INTERVAL,
    },
  };
}
