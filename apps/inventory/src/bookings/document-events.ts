import { Inject, Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { DocumentsEvents, type DocumentDeletedEvent, type EventEnvelope } from '@media/contracts';
import { OnEvent } from '@media/platform';
import type { EntityManager } from 'typeorm';
import { AssetsService } from './assets.service';

/**
 * Consumes `documents.document.deleted` (docs/api/contract.md §4.11): durable (JetStream, so a deletion made
 * while inventory was down is applied at its next start) and idempotent on the event id.
 */
@Injectable()
export class DocumentEvents {
  private readonly logger = new Logger('DocumentEvents');

  constructor(@Inject(AssetsService) private readonly assets: AssetsService) {}

  @OnEvent(DocumentsEvents.documentDeleted)
  async documentDeleted(event: EventEnvelope<DocumentDeletedEvent>, manager: EntityManager): Promise<void> {
    const id = event.data?.document_id;
    // A malformed event can never apply: acknowledge it rather than redeliver it forever.
    if (typeof id !== 'string' || !isUUID(id, 'all')) {
      this.logger.warn({ event_id: event.id }, 'documents.document.deleted without a valid document_id');
      return;
    }
    await this.assets.detachDocument(manager, id);
  }
}
