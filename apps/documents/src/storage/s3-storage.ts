import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DocumentStorage, documentIdOfKey, type ByteRange, type StoredFile } from './document-storage';

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

  override destroy(): void {
    this.client.destroy();
  }
}
