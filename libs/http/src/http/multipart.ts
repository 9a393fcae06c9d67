import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from '@media/core';
import { markFormBody, decodeUtf8 } from '@media/kernel';

export const MULTIPART = 'http:multipart';

export interface MultipartOptions {
  /** Form fields that may carry a file; each file is streamed to a temporary file on disk. */
  files?: readonly string[];
  /** Only multipart: a JSON or urlencoded body (which cannot carry a file) is 415 (an upload endpoint). */
  only?: boolean;
}

/** A file part of a multipart body, already on disk; it is removed when the response is done. */
export interface UploadedFileInfo {
  /** The form field it came in. */
  field: string;
  /** Where the bytes are now (a temporary file). */
  path: string;
  /** The client's file name, as sent (not sanitised: never use it as a path). */
  filename: string;
  /** The part's declared content type. */
  mimetype: string;
  size: number;
  /** Lowercase hex, computed while the bytes arrived. */
  sha256: string;
}

/**
 * The route takes `multipart/form-data` besides JSON and urlencoded bodies (docs/api/contract.md §3). Only
 * such routes read multipart bodies, and only after authentication; elsewhere they are 415.
 */
export const Multipart = (options: MultipartOptions = {}) =>
  applyDecorators(
    SetMetadata(MULTIPART, {
      files: options.files ?? [],
      only: options.only ?? false,
    } satisfies MultipartOptions),
    options.only
      ? ApiConsumes('multipart/form-data')
      : ApiConsumes('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'),
  );

const UPLOADS = Symbol('uploads');
type RequestWithUploads = Request & { [UPLOADS]?: UploadedFileInfo[] };

/** The files of a `@Multipart({ files })` request (empty for JSON and urlencoded bodies). */
export const UploadedFiles = createParamDecorator(
  (_: unknown, context: ExecutionContext): UploadedFileInfo[] =>
    uploadedFiles(context.switchToHttp().getRequest<Request>()),
);

/** The files a multipart request carried (empty for other bodies). */
export function uploadedFiles(req: Request): UploadedFileInfo[] {
  return (req as RequestWithUploads)[UPLOADS] ?? [];
}

/** Stands in the body for a file sent in a field that takes text, so validation refuses it. */
export class UnexpectedFile {
  constructor(readonly filename: string) {}
}

export function isMultipart(req: Request): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';
}

/** Counts the bytes of a body as they arrive, whatever the headers said, and stops past the limit. */
class ByteBudget extends Transform {
  private seen = 0;
  exceeded = false;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      this.exceeded = true;
      return done(new PayloadTooLarge(this.limit));
    }
    done(null, chunk);
  }
}

function appendField(body: Record<string, unknown>, name: string, value: unknown): void {
  const current = body[name];
  if (current === undefined) body[name] = value;
  else if (Array.isArray(current)) current.push(value);
  else body[name] = [current, value];
}

/**
 * Reads a multipart body for a route that declared it: text fields into `req.body` (marked as a
 * form, so they are coerced like urlencoded ones), declared file fields to temporary files with
 * their size and sha256. At most UPLOAD_LIMIT bytes are read (BODY_LIMIT when the route takes no
 * files): past it the answer is 413 and the
 * connection closes. Temporary files are removed when the response ends or the client goes away.
 */
export async function readMultipart(
  req: Request,
  res: Response,
  options: MultipartOptions,
  limits: { upload: number; field: number },
): Promise<void> {
  // Without file fields, a multipart body is a form like any other, held to the body limit.
  const limit = options.files?.length ? limits.upload : limits.field;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new PayloadTooLarge(limit);

  const uploads: UploadedFileInfo[] = [];
  const cleanup = () => Promise.all(uploads.map((file) => rm(file.path, { force: true }))).catch(() => {});
  res.once('close', () => void cleanup());

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send `filename="…"` as raw UTF-8; busboy would read it as Latin-1.
      defParamCharset: 'utf8',
      // Text fields arrive as bytes (Latin-1 keeps them intact) and are decoded strictly below, so
      // invalid UTF-8 is refused at its field instead of being stored as U+FFFD (docs/api/contract.md §2).
      defCharset: 'latin1',
      limits: { fieldSize: limits.field, fields: 1000, fileSize: limit, parts: 2000 },
    });
  } catch {
    throw new UnsupportedMediaType('multipart/form-data (without a boundary)', ['multipart/form-data']);
  }

  const body: Record<string, unknown> = {};
  const writes: Promise<void>[] = [];
  let tooLarge = false;
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) tooLarge = true;
    else appendField(body, name, decodeUtf8(Buffer.from(value, 'latin1'), value));
  });
  parser.on('file', (name, stream, info) => {
    if (!options.files?.includes(name)) {
      appendField(body, name, new UnexpectedFile(info.filename ?? ''));
      stream.resume();
      return;
    }
    const file: UploadedFileInfo = {
      field: name,
      path: join(tmpdir(), `media-upload-${randomUUID()}`),
      filename: info.filename ?? '',
      mimetype: info.mimeType || 'application/octet-stream',
      size: 0,
      sha256: '',
    };
    uploads.push(file);
    const hash = createHash('sha256');
    stream.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      file.size += chunk.length;
    });
    stream.on('limit', () => (tooLarge = true));
    writes.push(
      pipeline(stream, createWriteStream(file.path, { flags: 'wx' })).then(() => {
        file.sha256 = hash.digest('hex');
      }),
    );
  });

  const budget = new ByteBudget(limit);
  try {
    await pipeline(req, budget, parser);
    await Promise.all(writes);
  } catch (error) {
    res.setHeader('Connection', 'close');
    await Promise.allSettled(writes);
    await cleanup();
    if (budget.exceeded || error instanceof PayloadTooLarge) throw new PayloadTooLarge(limit);
    // The content type was right; the body is not (wrong boundary, cut short): docs/api/contract.md §2.
    throw ValidationFailed.at(
      ['body'],
      'Malformed multipart body (a wrong boundary, or cut short)',
      'multipart_invalid',
    );
  }
  if (tooLarge) {
    await cleanup();
    throw new PayloadTooLarge(limit);
  }
  // The whole body was read: the connection may be kept alive after all.
  res.removeHeader('Connection');
  (req as RequestWithUploads)[UPLOADS] = uploads;
  req.body = markFormBody(body);
}
