import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { DocumentsEvents, type EventEnvelope } from '@media/contracts';
import type { EntityManager } from 'typeorm';
import { Feature } from '../bootstrap/feature';
import { unknownDocument } from '@media/app-clients';
import { EVENT_HANDLER_NAMES, OnEvent, type NamedEventHandlers } from '@media/messaging';
import { DocumentDeletedPayload } from './document-deleted.payload';
import { DeletedDocumentsTable1766000000000 } from './deleted-documents.migration';

/** What an app does inside the deletion event's transaction (detach, clear, notify). */
export type DocumentDeletedHandler = (
  event: EventEnvelope<DocumentDeletedPayload>,
  manager: EntityManager,
) => Promise<void>;

export interface DeletedDocumentsOptions {
  /**
   * The handler name the app's durable consumer is known by (e.g. `LineupService.onDocumentDeleted`):
   * the consumer's position and its processed-event records are kept under it, so a deployment
   * neither replays nor skips a deletion.
   */
  consumer?: string;
}

const OPTIONS = Symbol('deleted-documents:options');

/**
 * The documents this app saw deleted, and the order of everything that sets or clears a document
 * id: `documents.document.deleted` (durable, once per event) locks the id, records a tombstone
 * and runs the app's handlers in one transaction; an app storing a document id calls `keep` in
 * its own transaction, which takes the same lock and refuses a tombstoned id. However an attach
 * and the deletion interleave, the attach either lands first (and the handler clears it) or sees
 * the tombstone. The lock is transaction-scoped and per database.
 */
@Injectable()
export class DeletedDocuments implements NamedEventHandlers {
  readonly [EVENT_HANDLER_NAMES]: Record<string, string>;
  private readonly handlers: DocumentDeletedHandler[] = [];

  constructor(@Inject(OPTIONS) options: DeletedDocumentsOptions) {
    this[EVENT_HANDLER_NAMES] = options.consumer ? { documentDeleted: options.consumer } : {};
  }

  /** Runs `handler` for every deletion, in the event's transaction, after the tombstone. */
  onDeleted(handler: DocumentDeletedHandler): void {
    this.handlers.push(handler);
  }

  /** Serialises this transaction with the document's deletion event (and other writers of the id). */
  async lock(manager: EntityManager, documentId: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `document:${documentId.toLowerCase()}`,
    ]);
  }

  /**
   * Before storing a reference to the document in this transaction: takes the lock, and a 422 at
   * `loc` (default `["body","document_id"]`) when this app already applied its deletion.
   */
  async keep(manager: EntityManager, documentId: string, loc?: string[]): Promise<void> {
    await this.lock(manager, documentId);
    const rows: unknown[] = await manager.query(`SELECT 1 FROM deleted_documents WHERE document_id = $1`, [
      documentId.toLowerCase(),
    ]);
    if (rows.length > 0) throw unknownDocument(documentId, loc);
  }

  @OnEvent(DocumentsEvents.documentDeleted, DocumentDeletedPayload)
  async documentDeleted(event: EventEnvelope<DocumentDeletedPayload>, manager: EntityManager): Promise<void> {
    const id = event.data.document_id.toLowerCase();
    event.data.document_id = id;
    await this.lock(manager, id);
    await manager.query(`INSERT INTO deleted_documents (document_id) VALUES ($1) ON CONFLICT DO NOTHING`, [
      id,
    ]);
    for (const handler of this.handlers) await handler(event, manager);
  }
}

/**
 * Gives an app `DeletedDocuments` (global, so any feature injects it) and its table:
 * `features: [DeletedDocumentsModule.forApp({ consumer: 'LineupService.onDocumentDeleted' }), ...]`.
 */
@Feature({ migrations: [DeletedDocumentsTable1766000000000] })
@Module({})
export class DeletedDocumentsModule {
  static forApp(options: DeletedDocumentsOptions = {}): DynamicModule {
    return {
      module: DeletedDocumentsModule,
      global: true,
      providers: [{ provide: OPTIONS, useValue: options }, DeletedDocuments],
      exports: [DeletedDocuments],
    };
  }
}
