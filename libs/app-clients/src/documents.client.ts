import { Inject, Injectable } from '@nestjs/common';
import { DocumentsSubjects, type DocumentRecord } from '@media/contracts';
import { DomainError, ValidationFailed } from '@media/core';
import { RpcClient } from '@media/messaging';

/** The 422 an app answers for a document id documents does not know (or knows as deleted). */
export function unknownDocument(id: string, loc: string[] = ['body', 'document_id']): ValidationFailed {
  return ValidationFailed.at(loc, `Document ${id} does not exist or was deleted`, 'value_error');
}

/**
 * What an app asks documents over NATS: is this document live? documents not answering is a 503
 * `upstream_unavailable` (docs/api/contract.md §5), as every `RpcClient` request.
 */
@Injectable()
export class DocumentsClient {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** The live document, or null when documents knows none by that id (unknown, deleted or malformed). */
  async find(id: string): Promise<DocumentRecord | null> {
    try {
      return await this.rpc.send(DocumentsSubjects.documentsGet, { id: id.toLowerCase() });
    } catch (error) {
      // A responder answering "not found" or "malformed id" means the same to this caller.
      const status = error instanceof DomainError || error instanceof ValidationFailed ? error.status : 0;
      if (status === 404 || status === 422) return null;
      throw error;
    }
  }

  /** The live document, or a 422 at `loc` (default `["body","document_id"]`). */
  async requireLive(id: string, loc?: string[]): Promise<DocumentRecord> {
    const record = await this.find(id);
    if (!record) throw unknownDocument(id, loc);
    return record;
  }
}
