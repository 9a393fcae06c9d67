export const DocumentsSubjects = {
  documentsGet: 'documents.documents.get',
  documentsGetMany: 'documents.documents.get-many',
} as const;

export const DocumentsEvents = {
  documentDeleted: 'documents.document.deleted',
} as const;

/** A stored document's record as other apps see it (the same fields as the HTTP record). */
export interface DocumentRecord {
  id: string;
  /** The client's base name, control characters removed, at most 255 characters. */
  filename: string;
  content_type: string;
  /** Bytes. */
  size: number;
  /** Lowercase hex SHA-256 of the content. */
  sha256: string;
  /** User id of the uploader. */
  uploaded_by: string;
  created_at: string;
}

/** Most ids one `documents.documents.get-many` request may ask for. */
export const DOCUMENTS_GET_MANY_MAX = 500;

export interface DocumentsRpc {
  /** One document; `null` when unknown or deleted. */
  [DocumentsSubjects.documentsGet]: { req: { id: string }; res: DocumentRecord | null };
  /**
   * The live documents among `ids` (at most DOCUMENTS_GET_MANY_MAX), in the order asked, each
   * once; unknown, deleted and malformed ids are absent.
   */
  [DocumentsSubjects.documentsGetMany]: { req: { ids: string[] }; res: DocumentRecord[] };
}

/** Payload of `documents.document.deleted`. */
export interface DocumentDeletedEvent {
  document_id: string;
  /** User id of the uploader (not of whoever deleted it). */
  uploaded_by: string;
  /** User id of whoever deleted it. */
  deleted_by: string;
  deleted_at: string;
}
