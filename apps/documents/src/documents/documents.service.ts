import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import {
  DocumentsEvents,
  Permissions,
  type DocumentDeletedEvent,
  type DocumentRecord,
} from '@media/contracts';
import { type AuthUser, Forbidden, hasPermission, NotFound, ValidationFailed } from '@media/core';
import { newestFirst, type Page, Paginator } from '@media/http';
import { Outbox } from '@media/messaging';
import { withAudit } from '@media/platform';
import { isUUID } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { DocumentStorage, type ByteRange } from '../storage/document-storage';
import { Document } from './document.entity';
import { entityTag, noneMatch, parseRange } from './download';
import { toDocumentView } from './document.view';
import type { ListDocumentsQuery } from './dto/document.dto';
import { storedContentType, storedFilename } from './stored-filename';

/** A file the platform received and wrote to a temp file, hashing it on the way. */
export interface ReceivedFile {
  path: string;
  filename: string;
  mimetype: string;
  size: number;
  sha256: string;
}

/** Conditional and range headers of a download request. */
export interface DownloadConditions {
  method: string;
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
}

/**
 * What a download finds (the controller turns it into status and headers): the document and its
 * entity tag; unless `If-None-Match` matched or the range is unsatisfiable, the range asked for
 * (absent: the whole content) and, unless HEAD or empty, its bytes.
 */
export type Download =
  | { kind: 'not-modified'; document: Document; etag: string }
  | { kind: 'unsatisfiable'; document: Document; etag: string }
  | { kind: 'content'; document: Document; etag: string; range?: ByteRange; body?: Readable };
/** Document records and their stored files (docs/api/contract.md §4.11). */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger('Documents');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DocumentStorage) private readonly storage: DocumentStorage,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  /**
   * Stores the one `file` part under a new id, then commits its record. A crash between the two
   * leaves a file without a record, which the sweeper removes; a failed insert removes it now.
   */
  async upload(files: ReceivedFile[], caller: AuthUser): Promise<DocumentRecord> {
    if (files.length === 0) throw ValidationFailed.at(['body', 'file'], 'Field required', 'missing');
    if (files.length > 1)
      throw ValidationFailed.at(['body', 'file'], `Expected one file, got ${files.length}`, 'too_long');
    const [file] = files;
    const id = randomUUID();
    await this.storage.put(id, file.path, file.size);
    try {
      // In a transaction, as every audited change (its entry names the caller).
      return await this.dataSource.transaction((manager) => this.insertRecord(manager, id, file, caller.id));
    } catch (error) {
      await this.storage.remove(id).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The record of a stored file, as every upload makes it (multipart or resumable): the name
   * sanitised, the media type checked, the hash in lowercase.
   */
  async insertRecord(
    manager: EntityManager,
    id: string,
    file: Pick<ReceivedFile, 'filename' | 'mimetype' | 'size' | 'sha256'>,
    uploadedBy: string,
  ): Promise<DocumentRecord> {
    const repository = manager.getRepository(Document);
    await repository.insert(
      repository.create({
        id,
        filename: storedFilename(file.filename),
        contentType: storedContentType(file.mimetype),
        size: file.size,
        sha256: file.sha256.toLowerCase(),
        uploadedBy,
      }),
    );
    return toDocumentView(await repository.findOneByOrFail({ id }));
  }

  async get(id: string): Promise<DocumentRecord> {
    return toDocumentView(await this.live(id));
  }

  /** The caller's documents (or another uploader's, for `documents:delete`), newest first. */
  async list(query: ListDocumentsQuery, caller: AuthUser, req: Request): Promise<Page<DocumentRecord>> {
    const uploader = query.uploaded_by?.toLowerCase() ?? caller.id;
    if (uploader !== caller.id.toLowerCase() && !hasPermission(caller, Permissions.documentsDelete)) {
      throw new Forbidden("Listing another user's documents needs documents:delete.");
    }
    const qb = this.dataSource
      .getRepository(Document)
      .createQueryBuilder('d')
      .where('d.uploaded_by = :uploader', { uploader })
      .andWhere('d.deleted_at IS NULL');
    return this.paginator.paginate(
      qb,
      newestFirst('d.created_at', (d) => d.createdAt),
      query,
      req,
      toDocumentView,
    );
  }

  /**
   * The content with its validators: not modified when `If-None-Match` matches, one satisfiable
   * range, an unsatisfiable one, or the whole. A deleted document is 404 whatever the headers.
   */
  async download(id: string, conditions: DownloadConditions): Promise<Download> {
    const document = await this.live(id);
    const etag = entityTag(document.sha256);
    if (noneMatch(conditions.ifNoneMatch, etag)) return { kind: 'not-modified', document, etag };
    const outcome = parseRange(conditions.range, document.size, conditions.ifRange, etag);
    if (outcome.kind === 'unsatisfiable') return { kind: 'unsatisfiable', document, etag };
    const range = outcome.kind === 'partial' ? outcome.range : undefined;
    if (conditions.method === 'HEAD' || document.size === 0)
      return { kind: 'content', document, etag, range };
    return { kind: 'content', document, etag, range, body: await this.storage.read(document.id, range) };
  }

  /**
   * Deletes a document: soft-deletes the record and writes `documents.document.deleted` to the outbox in
   * one transaction (the row lock makes a concurrent second delete a 404), then removes the file.
   */
  async delete(id: string, caller: AuthUser): Promise<void> {
    // The soft delete is the document's deletion in its audit trail.
    await withAudit({ actions: { document: 'document.deleted' } }, () => this.deleteNow(id, caller));
  }

  private async deleteNow(id: string, caller: AuthUser): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const doc = await manager
        .getRepository(Document)
        .createQueryBuilder('d')
        .setLock('pessimistic_write')
        .where('d.id = :id', { id })
        .andWhere('d.deleted_at IS NULL')
        .getOne();
      if (!doc) throw new NotFound('Document', id);
      if (doc.uploadedBy !== caller.id.toLowerCase() && !hasPermission(caller, Permissions.documentsDelete)) {
        throw new Forbidden('Only the uploader or a holder of documents:delete may delete this document.');
      }
      const deletedAt = new Date();
      await manager.update(Document, { id: doc.id }, { deletedAt, deletedBy: caller.id });
      const event: DocumentDeletedEvent = {
        document_id: doc.id,
        uploaded_by: doc.uploadedBy,
        deleted_by: caller.id,
        deleted_at: deletedAt.toISOString(),
      };
      await this.outbox.enqueue(manager, DocumentsEvents.documentDeleted, event);
    });
    await this.removeFile(id.toLowerCase());
  }

  /** Removes a deleted document's file and records it; on failure the sweeper retries. */
  async removeFile(id: string): Promise<boolean> {
    try {
      await this.storage.remove(id);
      await this.dataSource.getRepository(Document).update({ id }, { fileRemovedAt: new Date() });
      return true;
    } catch (error) {
      this.logger.warn(
        { document_id: id, err: error instanceof Error ? error.message : String(error) },
        'Could not remove a deleted document’s file; the sweeper will retry',
      );
      return false;
    }
  }

  /** Live records among `ids`, in the order asked, each once; others absent (NATS get-many). */
  async getMany(ids: string[]): Promise<DocumentRecord[]> {
    const wanted = [...new Set(ids.filter((id) => isUUID(id, 'all')).map((id) => id.toLowerCase()))];
    if (wanted.length === 0) return [];
    const rows = await this.dataSource
      .getRepository(Document)
      .createQueryBuilder('d')
      .where('d.id IN (:...ids)', { ids: wanted })
      .andWhere('d.deleted_at IS NULL')
      .getMany();
    const byId = new Map(rows.map((d) => [d.id, d]));
    return wanted.flatMap((id) => {
      const doc = byId.get(id);
      return doc ? [toDocumentView(doc)] : [];
    });
  }

  private async live(id: string): Promise<Document> {
    const doc = await this.dataSource
      .getRepository(Document)
      .createQueryBuilder('d')
      .where('d.id = :id', { id })
      .andWhere('d.deleted_at IS NULL')
      .getOne();
    if (!doc) throw new NotFound('Document', id);
    return doc;
  }
}
