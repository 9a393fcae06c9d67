/**
 * `@media/platform`: what composes an app: defineApp/createApp/runApp, @Feature, the
 * platform module (guards, pipe, filter, NATS, health, metrics), the platform's own tables
 * and migrations, the deleted-documents feature, the audit trail.
 */
// Booting an app
export { defineApp } from './bootstrap/define-app';
export type { AppDefinition } from './bootstrap/app-definition';
export { Feature } from './bootstrap/feature';
export { DrainHooks } from './bootstrap/drain-hooks';
export { createApp, previewOpenApiDocument, runApp, stopApp } from './bootstrap/start-app';
/** @public Also for apps' tests that migrate a database of their own. */
export { migrateDatabase } from './database/database';
export { DeletedDocuments, DeletedDocumentsModule } from './deleted-documents/deleted-documents';
export { DocumentDeletedPayload } from './deleted-documents/document-deleted.payload';
/** @public For tests that drive a checkpoint round or a verification themselves. */
export { AuditCheckpoints } from './audit/checkpoints';
/** @public */
export { AuditReader, VERIFY_HEARTBEAT_MS } from './audit/audit-reader.service';
export { AuditEntryResponse } from './audit/dto/audit.response';
/** @public The sealed entry's columns, for a table that holds copies of entries (acl's merged trail). */
export { AuditEntryColumns } from './audit/sealed-entry.entity';
export { asAuditJob, auditContextJson, withAudit } from './audit/context';
export { auditTrigger, dropAuditTrigger, recordAuditEvent, type AuditedTable } from './audit/recording';
/** @public For tests that run a retention pass themselves. */
export { AuditRetention } from './audit/retention';
