import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  DocumentStorage,
  documentIdOfKey,
  type ByteRange,
  type ChunkTarget,
  type ResumableState,
  type StoredFile,
} from './document-storage';

/** S3's smallest part but the last. */
export const MIN_PART = 5 * 1024 * 1024;
/** The largest part this driver sends (S3 allows 5 GiB). */
const MAX_PART = 1024 ** 3;

/** Passes the first `limit` bytes on and ends. */
function firstBytes(limit: number): Transform {
  let left = limit;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left <= 0) return done();
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      done(null, part);
    },
  });
}

const OWNER_KEY = '.owner';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prefix of every key, empty or ending in `/`. */
  prefix: string;
}

/**
 * Objects in an S3-compatible bucket. Uploads are one PutObject streamed from the finished
 * temp file with its known length (UPLOAD_LIMIT is far below PutObject's 5 GB), so an object
 * exists only complete. Checksums are sent only when an operation requires them: newer SDKs
 * otherwise send aws-chunked bodies with trailing checksums, which many S3-compatible servers
 * refuse.
 */
export class S3DocumentStorage extends DocumentStorage {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    super();
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    return `${this.options.prefix}${key}`;
  }

  async put(key: string, sourcePath: string, size: number): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: size === 0 ? Buffer.alloc(0) : createReadStream(sourcePath),
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const result = await this.client.send(
      new GetObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    const body = result.Body;
    let stream: Readable;
    if (body instanceof Readable) stream = body;
    else if (!body) stream = Readable.from([]);
    else stream = Readable.fromWeb(body.transformToWebStream() as import('node:stream/web').ReadableStream);
    // Some S3-compatible servers answer more than asked (s3rver reads `bytes=0-0` as `bytes=0-`);
    // the response promised exactly the range's length, so never pass on more.
    return range ? stream.pipe(firstBytes(range.end - range.start + 1)) : stream;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
    );
  }

  async *list(): AsyncIterable<StoredFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.options.prefix || undefined,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.options.prefix.length);
        if (key && !key.includes('/') && documentIdOfKey(key))
          yield { key, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async readOwner(): Promise<string | undefined> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(OWNER_KEY) }),
      );
      return (await result.Body?.transformToString())?.trim();
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  /** Written only when absent (checked first; replicas of one installation write the same id). */
  async claimOwner(id: string): Promise<void> {
    if ((await this.readOwner()) !== undefined) return;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(OWNER_KEY),
        Body: `${id}\n`,
        ContentType: 'text/plain',
      }),
    );
  }

  /**
   * Bytes of an upload not yet in a part: `size` bytes that start part `parts + 1`. Each change
   * is a new object (never one overwritten while it is read), the old one deleted once the new
   * state is committed.
   */
  private pendingKey(key: string, parts: number, size: number): string {
    return this.objectKey(`${key}.pending.${parts + 1}.${size}`);
  }

  async startResumable(key: string): Promise<ResumableState> {
    const created = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        ContentType: 'application/octet-stream',
      }),
    );
    return { uploadId: created.UploadId, parts: [], pending: 0 };
  }

  /**
   * A chunk is received into a temp file (its length is known only once it has arrived, and a
   * cut chunk keeps what came), then becomes parts: the pending bytes and the chunk together,
   * in parts of 5 MiB to 1 GiB; what stays below 5 MiB (and is not the end) is the new pending
   * object. Nothing is held in memory.
   */
  async openChunk(key: string, state: ResumableState, _offset: number): Promise<ChunkTarget> {
    const temp = join(tmpdir(), `media-tus-${randomUUID()}`);
    const handle = await open(temp, 'w+');
    const drop = async () => {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
    };
    return {
      handle,
      position: 0,
      keep: async (received, last) => {
        try {
          await handle.close();
          return await this.keepChunk(key, state, temp, received, last);
        } finally {
          await rm(temp, { force: true });
        }
      },
      discard: drop,
    };
  }

  private async keepChunk(
    key: string,
    state: ResumableState,
    temp: string,
    received: number,
    last: boolean,
  ): Promise<{ state: ResumableState; cleanup(): Promise<void> }> {
    const parts = [...(state.parts ?? [])];
    const pending = state.pending ?? 0;
    const consumed = this.pendingKey(key, parts.length, pending);
    let carry = pending;
    let position = 0;
    const fromTemp = (start: number, end: number) =>
      end > start ? createReadStream(temp, { start, end: end - 1 }) : undefined;
    for (;;) {
      const available = carry + received - position;
      if (available === 0 || (!last && available < MIN_PART)) break;
      const size = Math.min(available, MAX_PART);
      const tail = fromTemp(position, position + size - carry);
      const number = parts.length + 1;
      const answer = await this.client.send(
        new UploadPartCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          UploadId: state.uploadId,
          PartNumber: number,
          Body: await this.joined(carry > 0 ? consumed : undefined, carry, tail),
          ContentLength: size,
        }),
      );
      parts.push({ number, etag: answer.ETag ?? '', size });
      position += size - carry;
      carry = 0;
    }
    const left = carry + received - position;
    const next = this.pendingKey(key, parts.length, left);
    if (left > 0 && next !== consumed) {
      // The bytes still pending (if no part took them) and the rest of the chunk.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: next,
          Body: await this.joined(carry > 0 ? consumed : undefined, carry, fromTemp(position, received)),
          ContentLength: left,
          ContentType: 'application/octet-stream',
        }),
      );
    }
    if (last && parts.length === 0) {
      // An empty file: no part to complete with, so a plain empty object instead.
      await this.removeResumable(key, { uploadId: state.uploadId });
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Body: Buffer.alloc(0),
          ContentLength: 0,
          ContentType: 'application/octet-stream',
        }),
      );
    } else if (last) {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          UploadId: state.uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.number, ETag: p.etag })) },
        }),
      );
    }
    return {
      state: { uploadId: state.uploadId, parts, pending: left },
      // Until the new state is committed, the old pending object is the committed one's.
      cleanup: async () => {
        if (pending > 0 && next !== consumed) await this.deleteQuietly(consumed);
      },
    };
  }

  /** The first `size` bytes of the pending object `pendingKey`, then `tail`, as one stream. */
  private async joined(pendingKey: string | undefined, size: number, tail: Readable | undefined) {
    const head = pendingKey && size > 0 ? await this.readObject(pendingKey, size) : undefined;
    return Readable.from(
      (async function* () {
        if (head) yield* head;
        if (tail) yield* tail;
      })(),
      { objectMode: false },
    );
  }

  private async readObject(objectKey: string, size: number): Promise<Readable> {
    const result = await this.client.send(
      new GetObjectCommand({ Bucket: this.options.bucket, Key: objectKey, Range: `bytes=0-${size - 1}` }),
    );
    const body = result.Body;
    const stream =
      body instanceof Readable
        ? body
        : Readable.fromWeb(body!.transformToWebStream() as import('node:stream/web').ReadableStream);
    return stream.pipe(firstBytes(size));
  }

  private async deleteQuietly(objectKey: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: objectKey }))
      .catch(() => undefined);
  }

  async removeResumable(key: string, state: ResumableState): Promise<void> {
    if (state.uploadId) {
      await this.client
        .send(
          new AbortMultipartUploadCommand({
            Bucket: this.options.bucket,
            Key: this.objectKey(key),
            UploadId: state.uploadId,
          }),
        )
        .catch((error: { name?: string }) => {
          // Gone already; or a server that cannot abort (s3rver): its parts are left to the
          // bucket's AbortIncompleteMultipartUpload lifecycle rule.
          if (!['NoSuchUpload', 'MethodNotAllowed', 'NotImplemented'].includes(error.name ?? '')) throw error;
        });
    }
    if (state.pending)
      await this.deleteQuietly(this.pendingKey(key, state.parts?.length ?? 0, state.pending));
  }

  override destroy(): void {
    this.client.destroy();
  }
}
