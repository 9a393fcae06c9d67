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
import {
  DomainError,
  Forbidden,
  hasPermission,
  NotFound,
  Outbox,
  Paginator,
  ValidationFailed,
  type AuthUser,
  type Page,
} from '@media/platform';
import { isUUID } from 'class-validator';
import type { DataSource } from 'typeorm';
import { DocumentStorage } from '../storage/document-storage';
import { Document } from './document.entity';
import { contentDisposition, entityTag, noneMatch, parseRange } from './download';
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

/** What a download answers: status, headers and (unless 304 or HEAD) the bytes. */
export interface Download {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body?: Readable;
}

export function toRecord(doc: Document): DocumentRecord {
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
      const doc = this.dataSource.getRepository(Document).create({
        id,
        filename: storedFilename(file.filename),
        contentType: storedContentType(file.mimetype),
        size: file.size,
        sha256: file.sha256.toLowerCase(),
        uploadedBy: caller.id,
      });
      await this.dataSource.getRepository(Document).insert(doc);
      const saved = await this.dataSource.getRepository(Document).findOneByOrFail({ id });
      return toRecord(saved);
    } catch (error) {
      await this.storage.remove(id).catch(() => undefined);
      throw error;
    }
  }

  async get(id: string): Promise<DocumentRecord> {
    return toRecord(await this.live(id));
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
      {
        columns: [
          { expression: 'd.created_at', direction: 'DESC', cast: 'timestamptz' },
          { expression: 'd.id', direction: 'DESC', cast: 'uuid' },
        ],
        key: (d) => [d.createdAt.toISOString(), d.id],
      },
      query,
      req,
      toRecord,
    );
  }

  /**
   * The content with its validators: 304 when `If-None-Match` matches, 206 for one satisfiable
   * range, 416 for an unsatisfiable one, else 200. A deleted document is 404 whatever the headers.
   */
  async download(id: string, conditions: DownloadConditions): Promise<Download> {
    const doc = await this.live(id);
    const etag = entityTag(doc.sha256);
    const headers: Record<string, string> = {
      ETag: etag,
      'Cache-Control': 'private, no-cache',
      'Accept-Ranges': 'bytes',
      'Content-Disposition': contentDisposition(doc.filename),
      'X-Content-Type-Options': 'nosniff',
    };
    if (noneMatch(conditions.ifNoneMatch, etag)) return { status: 304, headers };
    headers['Content-Type'] = doc.contentType;
    const outcome = parseRange(conditions.range, doc.size, conditions.ifRange, etag);
    if (outcome.kind === 'unsatisfiable') {
      throw new DomainError(
        416,
        'range_not_satisfiable',
        `The range is outside the document's ${doc.size} bytes.`,
        { 'Content-Range': `bytes */${doc.size}` },
      );
    }
    const range = outcome.kind === 'partial' ? outcome.range : undefined;
    headers['Content-Length'] = String(range ? range.end - range.start + 1 : doc.size);
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${doc.size}`;
    const status = range ? 206 : 200;
    if (conditions.method === 'HEAD' || doc.size === 0) return { status, headers };
    return { status, headers, body: await this.storage.read(doc.id, range) };
  }

  /**
   * Endpoint 11: soft-deletes the record and writes `documents.document.deleted` to the outbox in
   * one transaction (the row lock makes a concurrent second delete a 404), then removes the file.
   */
  async delete(id: string, caller: AuthUser): Promise<void> {
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
      return doc ? [toRecord(doc)] : [];
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
