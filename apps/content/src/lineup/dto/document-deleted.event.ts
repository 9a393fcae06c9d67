import { IsUUID } from 'class-validator';
import type { DocumentDeletedEvent } from '@media/contracts';

/** What this app reads of `documents.document.deleted`; a malformed event is dead-lettered. */
export class DocumentDeletedPayload implements Pick<DocumentDeletedEvent, 'document_id'> {
  @IsUUID('all')
  document_id!: string;
}
