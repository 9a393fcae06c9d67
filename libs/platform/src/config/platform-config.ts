import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** Parses sizes such as `1048576`, `512kb`, `1mb`, `50MiB` into bytes. */
export function parseByteSize(value: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k')
    ? 1024
    : unit.startsWith('m')
      ? 1024 ** 2
      : unit.startsWith('g')
        ? 1024 ** 3
        : 1;
  return Number(match[1]) * factor;
}

const toBytes = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (parseByteSize(value) ?? value) : value;

/** Parses durations such as `2000` (ms), `30s`, `15m`, `24h`, `7d` into milliseconds. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) return undefined;
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] ?? 1;
  return Number(match[1]) * factor;
}

export const toDuration = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (parseDuration(value) ?? value) : value;

const SIZE_MESSAGE = 'must be a size in bytes such as 1048576 or 1mb';
const URL_MESSAGE = (scheme: string) => `must be a ${scheme} URL`;

/** Variables every app reads (CONTRACT §6). */
export class PlatformConfig {
  @Transform(toInt)
  @IsInt({ message: 'must be an integer port' })
  @Min(0, { message: 'must be a port between 0 and 65535' })
  @Max(65535, { message: 'must be a port between 0 and 65535' })
  PORT!: number;

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: URL_MESSAGE('postgres://') })
  DATABASE_URL!: string;

  /** `nats://host:port[,nats://...]`, or `inproc` for the embedded single-process bus. */
  @Matches(/^(inproc|nats:\/\/\S+)$/, { message: 'must be nats://host:port (comma-separated) or inproc' })
  NATS_URL!: string;

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  CURSOR_SECRET!: string;

  /** Where acl publishes its JWKS; every app verifies tokens against it. */
  @Matches(/^https?:\/\/\S+$/, { message: URL_MESSAGE('http(s)://') })
  JWT_JWKS_URL: string = 'http://127.0.0.1:3006/acl/.well-known/jwks.json';

  @IsString()
  JWT_ISSUER: string = 'media-backoffice-acl';

  @IsString()
  JWT_AUDIENCE: string = 'media-backoffice';

  @Transform(toBytes)
  @IsInt({ message: SIZE_MESSAGE })
  @Min(1, { message: SIZE_MESSAGE })
  BODY_LIMIT: number = 1024 * 1024;

  @Transform(toBytes)
  @IsInt({ message: SIZE_MESSAGE })
  @Min(1, { message: SIZE_MESSAGE })
  UPLOAD_LIMIT: number = 50 * 1024 * 1024;

  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 2000, 2s or 1m' })
  @Min(1)
  NATS_REQUEST_TIMEOUT: number = 2000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsOptional()
  @IsIn(['true', 'false'])
  LOG_PRETTY?: string;

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

  /** How long SIGTERM waits for in-flight requests before the process stops anyway. */
  @Transform(toDuration)
  @IsInt({ message: 'must be a duration such as 10000, 10s or 1m' })
  @Min(0, { message: 'must be a duration such as 10000, 10s or 1m' })
  SHUTDOWN_TIMEOUT: number = 10_000;
}
