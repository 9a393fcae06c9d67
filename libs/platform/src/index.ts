/**
 * `@media/platform`: what an app is built with. Everything Nest-free is in `./core` (also
 * importable alone as `@media/platform/core`); the rest is the Nest side: booting, decorators,
 * validation, pagination, NATS requests and events. Internals (the in-process bus, the request
 * context store, the NATS client token, the outbox tables) stay inside.
 */
export * from './core';

// Booting an app
export { defineApp, type AppSpec } from './bootstrap/define-app';
export type { AppDefinition } from './bootstrap/app-definition';
export type { RpcEndpoint } from './nats/service-discovery';
export { Feature, type FeatureModule, type FeatureParts } from './bootstrap/feature';
export { DrainHooks, type DrainHook } from './bootstrap/drain-hooks';
export {
  createApp,
  isDraining,
  loadAppConfig,
  previewOpenApiDocument,
  runApp,
  stopApp,
} from './bootstrap/start-app';
export { InjectConfig } from './config/inject-config';
export { APP_CONFIG, APP_NAME } from './config/tokens';
export { migrateDatabase, type DatabaseParts } from './database/database';
export { changedRows } from './database/changed-rows';
export { PreparedQuery } from './database/prepared';
export { uniqueViolation } from './database/errors';
export { formatCents, formatMoney, Money, toCents } from './money/money';
export {
  DatabaseAvailability,
  DatabaseUnavailable,
  isDatabaseUnavailable,
  isSessionLost,
} from './database/availability';

// HTTP: auth, bodies, errors, OpenAPI
export { CurrentUser, JsonOnly, Public, RequirePermissions } from './auth/decorators';
export { AnyPermissionGuard, RequireAnyPermission } from './auth/any-permission';
export { Idempotent } from './idempotency/idempotent.decorator';
export { Multipart, UploadedFiles, type MultipartOptions, type UploadedFileInfo } from './http/multipart';
export { StreamedBody, type StreamedBodyType } from './http/streamed-body';
export {
  ApiBinary,
  ApiErrors,
  ApiNoContent,
  ApiStreamed,
  ApiSuccess,
  envelopeSchema,
  ErrorResponse,
  PageDto,
  pageSchema,
  ValidationErrorResponse,
  type ApiSuccessOptions,
  type ErrorStatus,
} from './http/api-docs';
export { publicOrigin, urlWithQuery } from './http/public-url';
export { envelope, type Envelope } from './http/envelope';

// Validation
export { ContractValidationPipe, validateDto } from './validation/validation.pipe';
export { RpcPayload } from './validation/rpc-payload';
export {
  contractConstraint,
  IsDateOnly,
  IsDateTime,
  isDateOnly,
  isDateTime,
  IsMoney,
  IsName,
  IsPlainObject,
  nameProblem,
  Nullable,
  Optional,
  ToDecimalString,
} from './validation/decorators';
export { ItemType } from './validation/coerce';
export { IsCleanText, isCleanText, Trim } from './validation/text';
export { isFormBody, markFormBody } from './validation/form-body';

// Pagination
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageQuery, type Page } from './pagination/page-query';
export { newestFirst, Paginator, type KeysetColumn, type KeysetOrder } from './pagination/paginator';

// Between apps: NATS requests and events
export { RpcClient } from './nats/rpc-client';
export { isInProcess } from './nats/transport';
export { natsConnectionOptions } from './nats/credentials';
export { OnEvent, OnEvents } from './outbox/on-event';

// Clients of acl and documents; the documents this app saw deleted
export { AclClient } from './clients/acl.client';
export { DocumentsClient } from './clients/documents.client';
export {
  DeletedDocuments,
  DeletedDocumentsModule,
  type DeletedDocumentsOptions,
  type DocumentDeletedHandler,
} from './deleted-documents/deleted-documents';
export { DocumentDeletedPayload } from './deleted-documents/document-deleted.payload';

// Periodic work
export {
  ClaimLoop,
  leaseFree,
  releaseLeases,
  type ClaimLoopOptions,
  type ClaimRound,
  type LeaseColumns,
} from './jobs/claim-loop';
export { GroupCommit } from './jobs/group-commit';
export { PeriodicJob, type JobTimer, type PeriodicJobOptions } from './jobs/periodic-job';
export { periodicJobProvider, periodicJobToken } from './jobs/periodic-job.provider';
export { Outbox } from './outbox/outbox';

// Audit trail (CONTRACT §8)
export {
  ChainWalker,
  GENESIS_HASH,
  entryHash,
  type AuditActor,
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
export { AuditCheckpoints, type CheckpointRound } from './audit/checkpoints';
export { AuditReader, VERIFY_HEARTBEAT_MS, type AuditVerification } from './audit/audit-reader.service';
export { AuditEntryResponse, AuditVerificationResponse } from './audit/dto/audit.response';
export { asAuditJob, auditContextJson, withAudit } from './audit/context';
export {
  auditTrigger,
  dropAuditTrigger,
  recordAuditEvent,
  type AuditedTable,
  type AuditEvent,
} from './audit/recording';
export { AuditSealer } from './audit/sealer';
export { AuditPublisher } from './audit/publisher';
export { AuditRetention } from './audit/retention';
