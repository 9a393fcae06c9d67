/**
 * `@media/core`: the platform without Nest, TypeORM or NATS: domain errors, config parsing and
 * definitions, access-token verification and revocation, request ids and context, trusted
 * proxies, metrics, tracing, money, process handling. The gateway and tools import only this;
 * a unit test keeps Nest, TypeORM and NATS out of it.
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
} from './errors/domain-errors';
export { ConfigError, processEnv } from './config/env';
export { isUuid } from './validation/ids';
export { parseDuration, toBytes, toDuration, toInt } from './config/parsers';
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
export { hasPermission, userFromClaims, type AuthUser } from './tokens/auth-user';
export { JwksKeyStore } from './tokens/jwks';
export { bearerToken, tokenRules, verifyAccessToken, type TokenRules } from './tokens/token-verifier';
export { VerifiedTokens } from './tokens/verified-tokens';
export {
  CLOSE_TOKEN_REVOKED,
  processTokenVersions,
  tokenRevoked,
  TokenVersions,
} from './tokens/token-versions';
export { TokenVersionFeed, type TokenVersionSource } from './tokens/token-version-feed';
export { natsTokenVersionSource } from './tokens/nats-token-versions';
export { pickRequestId, requestId } from './http/request-id';
export { answerClientErrors, writeSocketError } from './http/client-errors';
export { parseTrustedProxies, type TrustedProxies } from './http/public-url';
export { runProcess } from './process/run-process';
export { HEAP_GROWTH_PERCENT, limitHeapGrowth } from './process/heap';
export { keepAliveGrace, lingerReadingAtMost, lingerOnClose, stopAccepting } from './process/connections';
export { InFlight } from './process/in-flight';
export { AppMetrics } from './observability/metrics';
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

export { formatCents, formatMoney, Money, toCents } from './money/money';
export { publicOrigin, urlWithQuery } from './http/public-url';

// The audit chain's definition (CONTRACT §8): hashing and walking, no database, so tools verify
// an export without Nest (audit:verify)
export {
  ChainWalker,
  GENESIS_HASH,
  entryHash,
  type AuditBreak,
  type AuditBreakReason,
  type AuditCheckpoint,
  type AuditCheckpointLine,
  type AuditEntry,
} from './audit/chain';
export {
  auditEntryOf,
  checkpointLineOf,
  type AuditCheckpointRow,
  type AuditEntryRow,
} from './audit/audit-row';

// Used by the libraries above this one
export { boundIssues, MAX_VALIDATION_ISSUES } from './errors/domain-errors';
export type { HttpTimeouts } from './config/platform-config';
export {
  type AuditActorContext,
  type AuditContext,
  currentContext,
  requestContext,
  type RequestContext,
} from './http/request-context';
export { requiresAll, requiresAny } from './tokens/auth-user';
export { authFailure, checkTokenTimes, keyObjectForToken, TOKEN_ALGORITHMS } from './tokens/token-verifier';
export { revokedEventData } from './tokens/token-version-feed';
export { httpMetrics } from './observability/metrics';
export { inSpan } from './observability/tracing';
export { type HttpConnections, manageConnections } from './process/connections';
