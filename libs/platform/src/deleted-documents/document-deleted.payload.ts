import { IsOptional, IsUUID } from 'class-validator';
import type { DocumentDeletedEvent } from '@media/contracts';

/** What the platform reads of `documents.document.deleted`; a malformed event is dead-lettered. */
export class DocumentDeletedPayload implements Pick<DocumentDeletedEvent, 'document_id'> {
  @IsUUID('all')
  document_id!: string;

  @IsOptional()
  @IsUUID('all')
  uploaded_by?: string | null;
}
