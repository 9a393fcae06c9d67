import { Inject, Injectable } from '@nestjs/common';
import {
  AclSubjects,
  DocumentsSubjects,
  idPages,
  type DocumentRecord,
  type UserProfile,
} from '@media/contracts';
import { DomainError, RpcClient, ValidationFailed } from '@media/platform';

/** What content asks other apps over NATS: uploader profiles (acl) and document checks (documents). */
@Injectable()
export class DirectoryService {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** Profiles of the given users, one request per page of ids (never one per row); unknown ids are absent. */
  async profiles(ids: Iterable<string>): Promise<Map<string, UserProfile>> {
    const out = new Map<string, UserProfile>();
    for (const page of idPages(ids)) {
      const found = await this.rpc.send(AclSubjects.usersGetMany, { ids: page });
      for (const profile of found) out.set(profile.id, profile);
    }
    return out;
  }

  /** The document, or a 422 at `["body","document_id"]` when documents knows no live one by that id. */
  async requireDocument(id: string): Promise<DocumentRecord> {
    let record: DocumentRecord | null;
    try {
      record = await this.rpc.send(DocumentsSubjects.documentsGet, { id });
    } catch (error) {
      // A responder answering "not found" or "malformed id" means the same to this caller.
      const status =
        error instanceof DomainError ? error.status : error instanceof ValidationFailed ? 422 : 0;
      if (status !== 404 && status !== 422) throw error;
      record = null;
    }
    if (!record) throw unknownDocument(id);
    return record;
  }
}

export function unknownDocument(id: string): ValidationFailed {
  return ValidationFailed.at(
    ['body', 'document_id'],
    `Document ${id} does not exist or was deleted`,
    'value_error',
  );
}
