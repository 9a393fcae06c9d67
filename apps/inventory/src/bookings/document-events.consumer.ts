import { Inject, Injectable } from '@nestjs/common';
import { DocumentsEvents, type EventEnvelope } from '@media/contracts';
import { OnEvent } from '@media/platform';
import type { EntityManager } from 'typeorm';
import { AssetsService } from './assets.service';
import { DocumentDeletedPayload } from './dto/document-deleted.event';

/**
 * Consumes `documents.document.deleted` (docs/api/contract.md §4.11): durable (JetStream, so a deletion made
 * while inventory was down is applied at its next start) and idempotent on the event id. An event
 * without a valid `document_id` never reaches the handler: it is dead-lettered.
 */
@Injectable()
export class DocumentEventsConsumer {
  constructor(@Inject(AssetsService) private readonly assets: AssetsService) {}

  @OnEvent(DocumentsEvents.documentDeleted, DocumentDeletedPayload)
  async documentDeleted(event: EventEnvelope<DocumentDeletedPayload>, manager: EntityManager): Promise<void> {
    await this.assets.detachDocument(manager, event.data.document_id);
  }
}
