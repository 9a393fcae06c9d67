/**
 * `@media/platform/core`: the platform without Nest, TypeORM or NATS, for code that only needs
 * errors, config parsing, token verification, request ids, metrics, tracing and process
 * handling (the gateway, tools). A unit test keeps this entry free of those packages.
 */
export {
  Conflict,
  DomainError,
  errorFromPayload,
  Forbidden,
  Gone,
  isRpcErrorPayload,
  NotFound,
  PayloadTooLarge,
  PreconditionFailed,
  RateLimited,
  Unauthenticated,
  UnsupportedMediaType,
  UpstreamUnavailable,
  ValidationFailed,
  type AuthFailureCode,
} from './errors/domain-errors';
export { ConfigError, processEnv, validateConfig } from './config/env';
export { isUuid } from './validation/ids';
export { parseByteSize, parseDuration, toBytes, toDuration, toInt } from './config/parsers';
export { defineConfig, type ConfigDefinition, type ConfigOf } from './config/define-config';
export { PlatformEnv } from './config/platform-env';
export {
  platformConfig,
  type AuthConfig,
  type DatabaseConfig,
  type EventsConfig,
  type NatsConfig,
  type PlatformConfig,
} from './config/platform-config';
export { hasPermission, userFromClaims, type AuthUser } from './auth/auth-user';
export { JwksKeyStore, type JwksOptions } from './auth/jwks';
export { bearerToken, tokenRules, verifyAccessToken, type TokenRules } from './auth/token-verifier';
export { VerifiedTokens } from './auth/verified-tokens';
export {
  CLOSE_TOKEN_REVOKED,
  processTokenVersions,
  tokenRevoked,
  TokenVersions,
  type RevocationListener,
} from './auth/token-versions';
export { TokenVersionFeed, type TokenVersionSource } from './auth/token-version-feed';
export { natsTokenVersionSource, type NatsConnect } from './auth/nats-token-versions';
export { pickRequestId, REQUEST_ID_HEADER, requestId } from './http/request-id';
export { answerClientErrors, writeSocketError } from './http/client-errors';
export { parseTrustedProxies, type TrustedProxies } from './http/public-url';
export { runProcess, type ProcessSpec } from './bootstrap/run-process';
export { HEAP_GROWTH_PERCENT, limitHeapGrowth } from './bootstrap/heap';
export { keepAliveGrace, lingerOnClose, stopAccepting } from './bootstrap/connections';
export { AppMetrics, type RpcOutcome } from './observability/metrics';
export {
  contextFrom,
  endHttpSpan,
  openSpan,
  SpanKind,
  startTracing,
  stopTracing,
  traceparentOf,
  type Span,
} from './observability/tracing';
export { currentApp, runInApp, type AppContext } from './observability/app-context';
// The audit chain's definition (pure: hashing and walking, no database), for tools that verify an
// export without Nest (audit:verify) and for tests.
export {
  ChainWalker,
  entryHash,
  GENESIS_HASH,
  type AuditBreak,
  type AuditCheckpoint,
  type AuditCheckpointLine,
  type AuditEntry,
} from './audit/chain';
export { auditEntryOf, type AuditEntryRow } from './audit/audit-row';
