/**
 * `@media/platform`: what composes an app: defineApp/createApp/runApp, @Feature, the
 * platform module (guards, pipe, filter, NATS, health, metrics), the platform's own tables
 * and migrations, the deleted-documents feature, the audit trail.
 */
// Booting an app
export { defineApp, type AppSpec } from './bootstrap/define-app';
export type { AppDefinition } from './bootstrap/app-definition';
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
export { migrateDatabase, type DatabaseParts } from './database/database';
export {
  DeletedDocuments,
  DeletedDocumentsModule,
  type DeletedDocumentsOptions,
  type DocumentDeletedHandler,
} from './deleted-documents/deleted-documents';
export { DocumentDeletedPayload } from './deleted-documents/document-deleted.payload';
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
