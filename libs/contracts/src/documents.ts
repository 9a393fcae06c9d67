export const DocumentsSubjects = {
  documentsGet: 'documents.documents.get',
} as const;

export const DocumentsEvents = {
  documentDeleted: 'documents.document.deleted',
} as const;

/** A stored document's record as other apps see it. */
export interface DocumentRecord {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  uploaded_by: string;
  created_at: string;
}

export interface DocumentsRpc {
  [DocumentsSubjects.documentsGet]: { req: { id: string }; res: DocumentRecord | null };
}

/** Payload of `documents.document.deleted`. */
export interface DocumentDeletedEvent {
  document_id: string;
  /** The uploader, who is notified of the deletion (optional: older events lack it). */
  uploaded_by?: string;
}
