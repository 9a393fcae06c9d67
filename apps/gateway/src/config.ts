import { availableParallelism } from 'node:os';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { APPS, envPrefix, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import {
  ConfigError,
  defineConfig,
  parseTrustedProxies,
  toBytes,
  toDuration,
  toInt,
  type AuthConfig,
  type ConfigOf,
} from '@media/core';
import { DEFAULT_ALLOWED_HOSTS, parseAllowedHosts } from './proxy/hosts';

const PORT_MESSAGE = 'must be a port between 0 and 65535';
const URL_MESSAGE = 'must be an http(s):// URL';
const ORIGIN_MESSAGE = 'must be an http(s)://host:port origin without a path';
/** Upstreams are origins: the gateway forwards the path unchanged (docs/api/contract.md §0), so no base path. */
const ORIGIN = /^https?:\/\/[^\s/?#]+\/?$/;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/\S*)?$/;
const DURATION_MESSAGE = 'must be a duration such as 2000, 30s or 1m';

/**
 * The gateway's variables (docs/api/contract.md §6). It has no database and uses NATS only to hear
 * of revoked tokens (NATS_URL), so it does not extend PlatformEnv. The `<APP>_URL` and
 * `JWT_JWKS_URL` defaults depend on other variables and are filled in before validation, so a bad
 * value is still named correctly.
 */
export class GatewayEnv {
  /** The gateway's port (3000 by default); wins over `PORT`. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: PORT_MESSAGE })
  @Min(0, { message: PORT_MESSAGE })
  @Max(65535, { message: PORT_MESSAGE })
  GATEWAY_PORT?: number;

  /** The gateway's port when `GATEWAY_PORT` is unset. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: PORT_MESSAGE })
  @Min(0, { message: PORT_MESSAGE })
  @Max(65535, { message: PORT_MESSAGE })
  PORT?: number;

  /**
   * The port of the gateway's Prometheus `/metrics`, a listener of its own (never the public
   * port), bound like the public one (HOST).
   */
  @Transform(toInt)
  @IsInt({ message: PORT_MESSAGE })
  @Min(0, { message: PORT_MESSAGE })
  @Max(65535, { message: PORT_MESSAGE })
  GATEWAY_METRICS_PORT: number = 9464;

  /**
   * The address the gateway's listeners (the public one and the metrics one) bind to; unset:
   * every interface (the images). `npm start` sets `127.0.0.1` unless HOST is given.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.:-]+$/, { message: 'must be an address or host name such as 127.0.0.1 or 0.0.0.0' })
  HOST?: string;

  /**
   * Processes serving the public port (node:cluster; the primary only starts them, keeps the
   * per-client rate limits and serves `/metrics`): one per core by default (a container with a
   * CPU limit sets it to that). 1: one process, no primary. The embedded default (`npm start`)
   * always runs one.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of processes, at least 1' })
  @Min(1, { message: 'must be a whole number of processes, at least 1' })
  @Max(64, { message: 'must be at most 64 processes' })
  GATEWAY_WORKERS?: number;

  /** Where content is reached (default `http://127.0.0.1:3001`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  CONTENT_URL!: string;

  /** Where assignment is reached (default `http://127.0.0.1:3002`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  ASSIGNMENT_URL!: string;

  /** Where inventory is reached (default `http://127.0.0.1:3003`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  INVENTORY_URL!: string;

  /** Where commercial is reached (default `http://127.0.0.1:3004`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  COMMERCIAL_URL!: string;

  /** Where payment is reached (default `http://127.0.0.1:3005`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  PAYMENT_URL!: string;

  /** Where acl is reached (default `http://127.0.0.1:3006`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  ACL_URL!: string;

  /** Where documents is reached (default `http://127.0.0.1:3007`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  DOCUMENTS_URL!: string;

  /** Where chat-notifications is reached (default `http://127.0.0.1:3008`). */
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  CHAT_NOTIFICATIONS_URL!: string;

  /** acl's JWKS (default: `ACL_URL` + `/acl/.well-known/jwks.json`). */
  @Matches(HTTP_URL, { message: URL_MESSAGE })
  JWT_JWKS_URL!: string;

  @IsString()
  JWT_ISSUER: string = 'media-backoffice-acl';

  @IsString()
  JWT_AUDIENCE: string = 'media-backoffice';

  /** Requests per minute per client (token `sub`, else address); 0 turns the limit off. */
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per minute' })
  @Min(0, { message: 'must be a whole number of requests per minute' })
  RATE_LIMIT_PER_MINUTE: number = 1200;

  /** Largest JSON or urlencoded request body, in bytes (the apps' BODY_LIMIT, docs/api/contract.md §6). */
  @Transform(toBytes)
  @IsInt({ message: 'must be a size in bytes such as 1048576 or 1mb' })
  @Min(1, { message: 'must be a size in bytes such as 1048576 or 1mb' })
  BODY_LIMIT: number = 1024 * 1024;

  /**
   * Largest body sent without a token, in bytes: the public routes that take one (a login, a
   * refresh, an invitation's acceptance) need a few hundred bytes; anything above is 413 at the
   * gateway, before an app parses it.
   */
  @Transform(toBytes)
  @IsInt({ message: 'must be a size in bytes such as 16384 or 16kb' })
  @Min(1, { message: 'must be a size in bytes such as 16384 or 16kb' })
  PUBLIC_BODY_LIMIT: number = 16 * 1024;

  /** Largest request body of any other type (multipart uploads), in bytes. */
  @Transform(toBytes)
  @IsInt({ message: 'must be a size in bytes such as 1048576 or 50mb' })
  @Min(1, { message: 'must be a size in bytes such as 1048576 or 50mb' })
  UPLOAD_LIMIT: number = 50 * 1024 * 1024;

  /** How long an upstream may take to start answering (and may stay silent mid-body). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(1, { message: DURATION_MESSAGE })
  UPSTREAM_TIMEOUT: number = 30_000;

  /** The longest access-token lifetime accepted: acl's JWT_ACCESS_TTL (set both alike). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(1000, { message: DURATION_MESSAGE })
  JWT_ACCESS_TTL: number = 15 * 60_000;

  /** Clock difference tolerated on a token's `iat`. */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(0, { message: DURATION_MESSAGE })
  JWT_CLOCK_SKEW: number = 30_000;

  /** How long SIGTERM waits for in-flight requests before cutting them. */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(0, { message: DURATION_MESSAGE })
  SHUTDOWN_TIMEOUT: number = 10_000;

  /** How long a client may take to send a request's headers (slowloris). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(1, { message: DURATION_MESSAGE })
  HEADERS_TIMEOUT: number = 10_000;

  /** How long a client may take to send a whole request, body included (0: no limit). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(0, { message: DURATION_MESSAGE })
  REQUEST_TIMEOUT: number = 300_000;

  /** How long a connection may stay silent (keep-alive between requests, or never a byte). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(1, { message: DURATION_MESSAGE })
  IDLE_TIMEOUT: number = 30_000;

  /** Open HTTP connections at most; upgraded (websocket) ones are counted by MAX_WEBSOCKETS. */
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of connections' })
  @Min(1, { message: 'must be a whole number of connections' })
  MAX_CONNECTIONS: number = 10_000;

  /** Open websocket tunnels at most. */
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of connections' })
  @Min(1, { message: 'must be a whole number of connections' })
  MAX_WEBSOCKETS: number = 10_000;

  /** Slowest request body accepted, in bytes per second, averaged over each 5 s (0: no minimum). */
  @Transform(toBytes)
  @IsInt({ message: 'must be a number of bytes per second' })
  @Min(0, { message: 'must be a number of bytes per second' })
  MIN_BODY_RATE: number = 1024;

  /** Origins allowed to call the API from a browser, comma-separated (none by default). */
  @Matches(/^\s*(https?:\/\/[^\s/?#,]+\s*(,\s*https?:\/\/[^\s/?#,]+\s*)*)?$/, {
    message: 'must be a comma-separated list of http(s)://host[:port] origins',
  })
  CORS_ORIGINS: string = '';

  /**
   * Strict-Transport-Security: `https` sends it only on requests that came over HTTPS (TLS, or a
   * trusted proxy's X-Forwarded-Proto), `always` on every answer, `off` never.
   */
  @IsIn(['https', 'always', 'off'])
  HSTS: 'https' | 'always' | 'off' = 'https';

  /** Proxies (CIDR list) whose X-Forwarded-* the gateway believes; loopback by default. */
  @IsString()
  TRUSTED_PROXIES: string = 'loopback';

  /**
   * The public origin of the API (`https://backoffice.example.com`): absolute URLs (pagination
   * links) start with it whatever host a client named, and its host is always in ALLOWED_HOSTS.
   * Unset: they start with the request's own host.
   */
  @IsOptional()
  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  PUBLIC_URL?: string;

  /**
   * Host names a request may name (its `Host`, or a trusted proxy's `X-Forwarded-Host`; the port
   * does not count), comma-separated: names, addresses (`[::1]`), `.example.com` for a domain and
   * its subdomains, `*` for any. Others are 400 `host_not_allowed`, `/health/*` excepted.
   * Unset: `localhost,127.0.0.1,[::1]`. PUBLIC_URL's host is added either way.
   */
  @IsString()
  ALLOWED_HOSTS: string = '';

  /** Health requests per minute per client (`/health/*` and every `/<prefix>/health/*`). */
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per minute' })
  @Min(60, { message: 'must be at least 60 requests per minute' })
  HEALTH_RATE_LIMIT_PER_MINUTE: number = 120;

  /** pino level of the gateway's JSON log lines. */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** When set, the gateway's `/metrics` (GATEWAY_METRICS_PORT) needs `Authorization: Bearer <METRICS_TOKEN>`. */
  @IsOptional()
  @IsString()
  @Matches(/^\S{16,}$/, { message: 'must be at least 16 characters without spaces' })
  METRICS_TOKEN?: string;

  /**
   * NATS (`nats://[user:pass@]host:port[,...]`, or `inproc` inside the embedded default), where
   * the gateway hears of revoked tokens from acl; without it only the apps refuse them.
   */
  @IsOptional()
  @Matches(/^(inproc|(nats|tls):\/\/\S+)$/, {
    message: 'must be nats://host:port (comma-separated) or inproc',
  })
  NATS_URL?: string;

  /** OTLP/HTTP collector for traces; off when unset (the other OTEL_* variables apply as usual). */
  @IsOptional()
  @Matches(HTTP_URL, { message: URL_MESSAGE })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** `<APP>_URL` of a service; the variable name is `<APP>_URL` with docs/api/contract.md §0's naming. */
export function upstreamVariable(app: ServiceName): keyof GatewayEnv {
  return `${envPrefix(app)}_URL` as keyof GatewayEnv;
}

function defaultUpstreamUrl(app: ServiceName, env: Record<string, string | undefined>): string {
  // `<APP>_PORT` moves an app (docs/api/contract.md §0), so the gateway follows it unless told a URL.
  const port = env[`${envPrefix(app)}_PORT`]?.trim();
  return `http://127.0.0.1:${port && /^\d+$/.test(port) ? port : APPS[app].port}`;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

function withDerivedDefaults(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const filled: Record<string, string | undefined> = { ...env };
  for (const app of SERVICE_NAMES) {
    const variable = upstreamVariable(app);
    filled[variable] = env[variable]?.trim() || defaultUpstreamUrl(app, env);
  }
  const aclUrl = withoutTrailingSlash(filled.ACL_URL ?? '');
  filled.JWT_JWKS_URL = env.JWT_JWKS_URL?.trim() || `${aclUrl}/acl/.well-known/jwks.json`;
  return filled;
}

/** The gateway's config, typed and grouped as the platform's (`PlatformConfig`) is. */
export const gatewayConfig = defineConfig(
  GatewayEnv,
  (env) => {
    try {
      parseTrustedProxies(env.TRUSTED_PROXIES);
    } catch (error) {
      throw new ConfigError('TRUSTED_PROXIES', (error as Error).message);
    }
    let allowedHosts: string[];
    try {
      allowedHosts = parseAllowedHosts(env.ALLOWED_HOSTS);
    } catch (error) {
      throw new ConfigError('ALLOWED_HOSTS', (error as Error).message);
    }
    if (allowedHosts.length === 0) allowedHosts = [...DEFAULT_ALLOWED_HOSTS];
    const publicUrl = env.PUBLIC_URL ? withoutTrailingSlash(env.PUBLIC_URL) : undefined;
    if (publicUrl) allowedHosts.push(`${new URL(publicUrl).hostname}`);
    const auth: AuthConfig = {
      jwksUrl: env.JWT_JWKS_URL,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      accessTtl: env.JWT_ACCESS_TTL,
      clockSkew: env.JWT_CLOCK_SKEW,
    };
    return {
      port: env.GATEWAY_PORT ?? env.PORT ?? APPS.gateway.port,
      /** GATEWAY_WORKERS: processes serving the public port (1: this one alone). */
      workers: env.GATEWAY_WORKERS ?? availableParallelism(),
      /** Where both listeners bind; undefined: every interface. */
      host: env.HOST,
      upstreams: Object.fromEntries(
        SERVICE_NAMES.map((app) => [app, withoutTrailingSlash(env[upstreamVariable(app)] as string)]),
      ) as Record<ServiceName, string>,
      auth,
      limits: {
        body: env.BODY_LIMIT,
        upload: env.UPLOAD_LIMIT,
        /** PUBLIC_BODY_LIMIT: any body without a token. */
        publicBody: env.PUBLIC_BODY_LIMIT,
        /** Requests per minute per client; 0: off. */
        ratePerMinute: env.RATE_LIMIT_PER_MINUTE,
        healthRatePerMinute: env.HEALTH_RATE_LIMIT_PER_MINUTE,
        maxConnections: env.MAX_CONNECTIONS,
        maxWebsockets: env.MAX_WEBSOCKETS,
        /** Bytes per second; 0: no minimum. */
        minBodyRate: env.MIN_BODY_RATE,
      },
      timeouts: {
        headers: env.HEADERS_TIMEOUT,
        request: env.REQUEST_TIMEOUT,
        idle: env.IDLE_TIMEOUT,
        upstream: env.UPSTREAM_TIMEOUT,
        shutdown: env.SHUTDOWN_TIMEOUT,
      },
      corsOrigins: env.CORS_ORIGINS.split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter((origin) => origin !== ''),
      trustedProxies: env.TRUSTED_PROXIES,
      /** PUBLIC_URL without a trailing slash, or undefined. */
      publicUrl,
      allowedHosts,
      hsts: env.HSTS,
      log: { level: env.LOG_LEVEL },
      metrics: { token: env.METRICS_TOKEN, port: env.GATEWAY_METRICS_PORT },
      nats: { url: env.NATS_URL },
      tracing: { otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT },
    };
  },
  { defaults: withDerivedDefaults },
);

export type GatewayConfig = ConfigOf<typeof gatewayConfig>;
