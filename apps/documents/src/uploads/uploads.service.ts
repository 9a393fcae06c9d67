import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentRecord } from '@media/contracts';
import { type AuthUser, Conflict, DomainError, NotFound } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { createSHA256 } from 'hash-wasm';
import type { DataSource } from 'typeorm';
import type { DocumentsConfig } from '../config';
import { Document } from '../documents/document.entity';
import { DocumentsService } from '../documents/documents.service';
import { DocumentStorage } from '../storage/document-storage';
import { ChunkTooLong, ChunkWriter } from './chunk-writer';
import { BadTusRequest, describedFile, parseMetadata, type Checksum } from './tus-headers';
import { Upload } from './upload.entity';

/** How long a replica holds an upload while it receives a chunk; renewed while bytes arrive. */
const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

/** Where an upload stands, as HEAD, POST and PATCH report it. */
export interface UploadStatus {
  id: string;
  offset: number;
  length: number;
  /** Absent once complete (the document stays). */
  expiresAt?: Date;
  metadata?: string | null;
}

/** A chunk as the controller hands it over: the request stream, unread. */
export interface Chunk {
  body: Readable;
  /** `Upload-Offset`. */
  offset: number;
  /** `Content-Length`, when given. */
  contentLength?: number;
  checksum?: Checksum;
}

/** What became of a chunk: the new status, the document when it was the last. */
export interface ChunkOutcome {
  status: UploadStatus;
  document?: DocumentRecord;
}

const statusOf = (upload: Upload): UploadStatus => ({
  id: upload.id,
  offset: upload.offset,
  length: upload.length,
  expiresAt: upload.expiresAt,
  metadata: upload.metadata,
});

/**
 * Resumable uploads (tus 1.0, docs/api/documents.md): the state in PostgreSQL, the bytes in the
 * storage driver, the SHA-256 of the whole file carried from chunk to chunk as a saved hash
 * state, so the last chunk makes the document without reading the file again. Any replica takes
 * any chunk: one at a time per upload (a lease in the row).
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DocumentStorage) private readonly storage: DocumentStorage,
    @Inject(DocumentsService) private readonly documents: DocumentsService,
    @InjectConfig() private readonly config: DocumentsConfig,
  ) {}

  /** Creation: the upload's row and its (empty) place in storage; an empty file is done at once. */
  async create(length: number, metadata: string | undefined, caller: AuthUser): Promise<UploadStatus> {
    if (length > this.config.tus.maxSize) {
      throw new DomainError(
        413,
        'payload_too_large',
        `Upload-Length ${length} exceeds Tus-Max-Size (${this.config.tus.maxSize} bytes).`,
      );
    }
    const described = describedFile(parseMetadata(metadata));
    const id = randomUUID();
    const hasher = await createSHA256();
    hasher.init();
    const storageState = await this.storage.startResumable(id);
    const upload = this.dataSource.getRepository(Upload).create({
      id,
      owner: caller.id.toLowerCase(),
      length,
      offset: 0,
      filename: described.filename ?? '',
      contentType: described.contentType ?? '',
      metadata: metadata ?? null,
      hashState: Buffer.from(hasher.save()),
      storageState,
      expiresAt: new Date(Date.now() + this.config.tus.expiry),
    });
    try {
      await this.dataSource.getRepository(Upload).insert(upload);
    } catch (error) {
      await this.storage.removeResumable(id, storageState).catch(() => undefined);
      throw error;
    }
    return statusOf(upload);
  }

  /**
   * HEAD: the caller's upload; a completed one (now the caller's document) reports its full
   * length, so a client that lost the last answer sees it is done.
   */
  async status(id: string, caller: AuthUser): Promise<UploadStatus> {
    const upload = await this.dataSource
      .getRepository(Upload)
      .findOneBy({ id, owner: caller.id.toLowerCase() });
    if (upload) return statusOf(upload);
    const document = await this.dataSource
      .getRepository(Document)
      .createQueryBuilder('d')
      .where('d.id = :id AND d.uploaded_by = :owner AND d.deleted_at IS NULL', {
        id,
        owner: caller.id.toLowerCase(),
      })
      .getOne();
    if (!document) throw new NotFound('Upload', id);
    return { id, offset: document.size, length: document.size };
  }

  /**
   * PATCH (and the body of a creation): writes the chunk at the upload's offset. A chunk cut
   * short is kept up to where it stopped (unless it carried a checksum, which cannot be checked
   * then); a bad checksum or a chunk past `Upload-Length` is dropped whole.
   */
  async write(id: string, chunk: Chunk, caller: AuthUser): Promise<ChunkOutcome> {
    const token = randomUUID();
    const upload = await this.claim(id, caller, token);
    const renew = setInterval(() => void this.renew(id, token), RENEW_MS);
    try {
      if (chunk.offset !== upload.offset) {
        throw new Conflict(
          `Upload-Offset ${chunk.offset} is not the upload's offset (${upload.offset}).`,
          'offset_mismatch',
        );
      }
      const room = upload.length - upload.offset;
      if (chunk.contentLength !== undefined && chunk.contentLength > room) {
        throw new BadTusRequest(`The chunk passes Upload-Length: ${room} bytes are left.`);
      }
      return await this.receive(upload, chunk, room, token);
    } finally {
      clearInterval(renew);
      await this.release(id, token);
    }
  }

  private async receive(upload: Upload, chunk: Chunk, room: number, token: string): Promise<ChunkOutcome> {
    const hasher = await createSHA256();
    hasher.load(upload.hashState);
    const check = chunk.checksum ? createHash(chunk.checksum.algorithm) : undefined;
    const target = await this.storage.openChunk(upload.id, upload.storageState, upload.offset);
    const writer = new ChunkWriter(target.handle, target.position, room, check ? [hasher, check] : [hasher]);
    const failure = await pipeline(chunk.body, writer).then(
      () => undefined,
      (error: unknown) => error,
    );
    await writer.settled();
    if (failure instanceof ChunkTooLong) {
      await target.discard();
      throw new BadTusRequest(`The chunk passes Upload-Length: ${room} bytes are left.`);
    }
    if (check && (failure !== undefined || !check.digest().equals(chunk.checksum!.digest))) {
      await target.discard();
      if (failure !== undefined) throw failure;
      throw new DomainError(
        460,
        'checksum_mismatch',
        `Upload-Checksum does not match the chunk's ${chunk.checksum!.algorithm}; the chunk was discarded.`,
      );
    }
    const offset = upload.offset + writer.written;
    const last = offset === upload.length;
    const kept = await target.keep(writer.written, last);
    if (!last) {
      await this.dataSource
        .getRepository(Upload)
        .update(
          { id: upload.id, busyToken: token },
          { offset, hashState: Buffer.from(hasher.save()), storageState: kept.state },
        );
      await kept.cleanup();
      if (failure !== undefined) this.logger.log({ upload_id: upload.id, offset }, 'A chunk was cut short');
      return { status: { ...statusOf(upload), offset } };
    }
    const sha256 = hasher.digest('hex');
    const document = await this.dataSource.transaction(async (manager) => {
      const record = await this.documents.insertRecord(
        manager,
        upload.id,
        { filename: upload.filename, mimetype: upload.contentType, size: upload.length, sha256 },
        upload.owner,
      );
      await manager.getRepository(Upload).delete({ id: upload.id, busyToken: token });
      return record;
    });
    await kept.cleanup();
    return { status: { ...statusOf(upload), offset }, document };
  }

  /** DELETE: the upload and its bytes are gone. */
  async terminate(id: string, caller: AuthUser): Promise<void> {
    const token = randomUUID();
    const upload = await this.claim(id, caller, token);
    try {
      await this.storage.removeResumable(id, upload.storageState);
      await this.dataSource.getRepository(Upload).delete({ id, busyToken: token });
    } catch (error) {
      await this.release(id, token);
      throw error;
    }
  }

  /** Removes up to `limit` uploads past `Upload-Expires` that no replica is receiving; how many. */
  async sweepExpired(limit: number): Promise<number> {
    const token = randomUUID();
    const rows = (await this.dataSource.query(
      `UPDATE uploads SET busy_token = $1, busy_until = now() + $2 * interval '1 millisecond'
       WHERE id IN (SELECT id FROM uploads WHERE expires_at < now()
                    AND (busy_until IS NULL OR busy_until < now())
                    ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, storage_state`,
      [token, LEASE_MS, limit],
    )) as [{ id: string; storage_state: Upload['storageState'] }[], number];
    let removed = 0;
    for (const { id, storage_state } of rows[0]) {
      try {
        await this.storage.removeResumable(id, storage_state);
        await this.dataSource.getRepository(Upload).delete({ id, busyToken: token });
        removed++;
      } catch (error) {
        await this.release(id, token);
        this.logger.warn(
          { upload_id: id, err: error instanceof Error ? error.message : String(error) },
          'Could not remove an expired upload; the next sweep retries',
        );
      }
    }
    return removed;
  }

  /** Takes the upload for one operation: 404 unless the caller's, 409 while another runs. */
  private async claim(id: string, caller: AuthUser, token: string): Promise<Upload> {
    const owner = caller.id.toLowerCase();
    const [, claimed] = (await this.dataSource.query(
      `UPDATE uploads SET busy_token = $3, busy_until = now() + $4 * interval '1 millisecond'
       WHERE id = $1 AND owner = $2 AND (busy_until IS NULL OR busy_until < now())`,
      [id, owner, token, LEASE_MS],
    )) as [unknown, number];
    const upload = await this.dataSource.getRepository(Upload).findOneBy({ id, owner });
    if (!upload) throw new NotFound('Upload', id);
    if (claimed === 0 || upload.busyToken !== token) {
      throw new Conflict(
        'The upload is receiving another chunk; retry when it ends (HEAD tells the offset).',
        'upload_in_progress',
      );
    }
    return upload;
  }

  private async renew(id: string, token: string): Promise<void> {
    await this.dataSource
      .query(
        `UPDATE uploads SET busy_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND busy_token = $2`,
        [id, token, LEASE_MS],
      )
      .catch(() => undefined);
  }

  private async release(id: string, token: string): Promise<void> {
    await this.dataSource
      .getRepository(Upload)
      .update({ id, busyToken: token }, { busyToken: null, busyUntil: null })
      .catch(() => undefined);
  }
}
