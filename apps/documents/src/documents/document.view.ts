import type { DocumentRecord } from '@media/contracts';
import type { Document } from './document.entity';

/** A document's record as the API and the NATS responders show it (docs/api/contract.md §4.11). */
export function toDocumentView(doc: Document): DocumentRecord {
  return {
    id: doc.id,
    filename: doc.filename,
    content_type: doc.contentType,
    size: doc.size,
    sha256: doc.sha256,
    uploaded_by: doc.uploadedBy,
    created_at: doc.createdAt.toISOString(),
  };
}
