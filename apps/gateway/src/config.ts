import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { APPS, envPrefix, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { parseByteSize, toDuration, validateConfig } from '@media/platform';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

const toBytes = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (parseByteSize(value) ?? value) : value;

const PORT_MESSAGE = 'must be a port between 0 and 65535';
const URL_MESSAGE = 'must be an http(s):// URL';
const ORIGIN_MESSAGE = 'must be an http(s)://host:port origin without a path';
/** Upstreams are origins: the gateway forwards the path unchanged (CONTRACT §0), so no base path. */
const ORIGIN = /^https?:\/\/[^\s/?#]+\/?$/;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/\S*)?$/;
const DURATION_MESSAGE = 'must be a duration such as 2000, 30s or 1m';

/**
 * The gateway's variables (CONTRACT §6). It has no database or NATS, so it does not extend
 * PlatformConfig. The `<APP>_URL` and `JWT_JWKS_URL` defaults depend on other variables and are
 * filled in by `loadGatewayConfig` before validation, so a bad value is still named correctly.
 */
export class GatewayConfig {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: PORT_MESSAGE })
  @Min(0, { message: PORT_MESSAGE })
  @Max(65535, { message: PORT_MESSAGE })
  GATEWAY_PORT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: PORT_MESSAGE })
  @Min(0, { message: PORT_MESSAGE })
  @Max(65535, { message: PORT_MESSAGE })
  PORT?: number;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  CONTENT_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  ASSIGNMENT_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  INVENTORY_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  COMMERCIAL_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  PAYMENT_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  ACL_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  DOCUMENTS_URL!: string;

  @Matches(ORIGIN, { message: ORIGIN_MESSAGE })
  CHAT_NOTIFICATIONS_URL!: string;

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

  /** Largest request body the gateway lets through, in bytes (uploads go to documents). */
  @Transform(toBytes)
  @IsInt({ message: 'must be a size in bytes such as 1048576 or 50mb' })
  @Min(1, { message: 'must be a size in bytes such as 1048576 or 50mb' })
  UPLOAD_LIMIT: number = 50 * 1024 * 1024;

  /** How long an upstream may take to start answering (and may stay silent mid-body). */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(1, { message: DURATION_MESSAGE })
  UPSTREAM_TIMEOUT: number = 30_000;

  /** How long SIGTERM waits for in-flight requests before cutting them. */
  @Transform(toDuration)
  @IsInt({ message: DURATION_MESSAGE })
  @Min(0, { message: DURATION_MESSAGE })
  SHUTDOWN_TIMEOUT: number = 10_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** When set, the gateway's own `/metrics` needs `Authorization: Bearer <METRICS_TOKEN>`. */
  @IsOptional()
  @IsString()
  @Matches(/^\S{16,}$/, { message: 'must be at least 16 characters without spaces' })
  METRICS_TOKEN?: string;

  /** OTLP/HTTP collector for traces; off when unset (the other OTEL_* variables apply as usual). */
  @IsOptional()
  @Matches(HTTP_URL, { message: URL_MESSAGE })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** The config with its derived values resolved, as the gateway uses it. */
export interface ResolvedGatewayConfig {
  port: number;
  upstreams: Record<ServiceName, string>;
  jwksUrl: string;
  issuer: string;
  audience: string;
  rateLimitPerMinute: number;
  uploadLimit: number;
  upstreamTimeout: number;
  shutdownTimeout: number;
  logLevel: string;
  metricsToken?: string;
  otelEndpoint?: string;
}

/** `<APP>_URL` of a service; the variable name is `<APP>_URL` with CONTRACT §0's naming. */
export function upstreamVariable(app: ServiceName): keyof GatewayConfig {
  return `${envPrefix(app)}_URL` as keyof GatewayConfig;
}

function defaultUpstreamUrl(app: ServiceName, env: Record<string, string | undefined>): string {
  // `<APP>_PORT` moves an app (CONTRACT §0), so the gateway follows it unless told a URL.
  const port = env[`${envPrefix(app)}_PORT`]?.trim();
  return `http://127.0.0.1:${port && /^\d+$/.test(port) ? port : APPS[app].port}`;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** Validates the environment (throws ConfigError naming the first bad variable). */
export function loadGatewayConfig(env: Record<string, string | undefined>): ResolvedGatewayConfig {
  const filled: Record<string, string | undefined> = { ...env };
  for (const app of SERVICE_NAMES) {
    const variable = upstreamVariable(app);
    filled[variable] = env[variable]?.trim() || defaultUpstreamUrl(app, env);
  }
  const aclUrl = withoutTrailingSlash(filled.ACL_URL ?? '');
  filled.JWT_JWKS_URL = env.JWT_JWKS_URL?.trim() || `${aclUrl}/acl/.well-known/jwks.json`;

  const config = validateConfig(GatewayConfig, filled);
  const upstreams = Object.fromEntries(
    SERVICE_NAMES.map((app) => [app, withoutTrailingSlash(config[upstreamVariable(app)] as string)]),
  ) as Record<ServiceName, string>;
  return {
    port: config.GATEWAY_PORT ?? config.PORT ?? APPS.gateway.port,
    upstreams,
    jwksUrl: config.JWT_JWKS_URL,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    uploadLimit: config.UPLOAD_LIMIT,
    upstreamTimeout: config.UPSTREAM_TIMEOUT,
    shutdownTimeout: config.SHUTDOWN_TIMEOUT,
    logLevel: config.LOG_LEVEL,
    metricsToken: config.METRICS_TOKEN,
    otelEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}
