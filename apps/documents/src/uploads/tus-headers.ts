import { DomainError } from '@media/core';

/** The protocol version spoken, and the extensions (docs/api/documents.md, resumable uploads). */
export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,termination,expiration,checksum';
export const TUS_CHECKSUM_ALGORITHMS = ['sha1', 'sha256'] as const;
export type ChecksumAlgorithm = (typeof TUS_CHECKSUM_ALGORITHMS)[number];

/** A tus request the server cannot take as sent: 400 with the contract's body. */
export class BadTusRequest extends DomainError {
  constructor(detail: string) {
    super(400, 'bad_request', detail);
  }
}

/** `Tus-Resumable` other than the version spoken: 412, naming the one supported. */
export function requireTusVersion(value: string | undefined): void {
  if (value === TUS_VERSION) return;
  throw new DomainError(
    412,
    'precondition_failed',
    value === undefined
      ? `Tus-Resumable is required (${TUS_VERSION}).`
      : `Tus-Resumable ${value} is not supported; this server speaks ${TUS_VERSION}.`,
    { 'Tus-Version': TUS_VERSION },
  );
}

/** A non-negative integer header (`Upload-Length`, `Upload-Offset`), or 400. */
export function byteCount(name: string, value: string | undefined): number {
  if (value === undefined || !/^\d{1,16}$/.test(value.trim())) {
    throw new BadTusRequest(`${name} must be a non-negative integer.`);
  }
  return Number(value.trim());
}

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs (the value may be absent); keys are
 * unique ASCII without spaces or commas. Values are decoded as UTF-8.
 */
export function parseMetadata(header: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  if (header === undefined || header.trim() === '') return pairs;
  for (const item of header.split(',')) {
    const [key, value, ...rest] = item.trim().split(' ');
    if (!key || rest.length > 0 || !/^[\x21-\x2b\x2d-\x7e]+$/.test(key) || pairs.has(key)) {
      throw new BadTusRequest('Upload-Metadata must be comma-separated "key base64value" pairs.');
    }
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw new BadTusRequest(`Upload-Metadata ${key} is not base64.`);
    }
    pairs.set(key, value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
  }
  return pairs;
}

/** What `Upload-Metadata` says of the file: tus clients name it `filename`, `name` or `filetype`. */
export function describedFile(metadata: Map<string, string>): { filename?: string; contentType?: string } {
  return {
    filename: metadata.get('filename') ?? metadata.get('name'),
    contentType: metadata.get('content_type') ?? metadata.get('filetype') ?? metadata.get('type'),
  };
}

export interface Checksum {
  algorithm: ChecksumAlgorithm;
  digest: Buffer;
}

/** `Upload-Checksum: <algorithm> <base64 digest>`; an algorithm not offered is 400. */
export function parseChecksum(header: string | undefined): Checksum | undefined {
  if (header === undefined) return undefined;
  const [algorithm, digest, ...rest] = header.trim().split(' ');
  if (!(TUS_CHECKSUM_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new BadTusRequest(
      `Upload-Checksum algorithm ${algorithm} is not supported (${TUS_CHECKSUM_ALGORITHMS.join(', ')}).`,
    );
  }
  if (!digest || rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(digest)) {
    throw new BadTusRequest('Upload-Checksum must be "<algorithm> <base64 digest>".');
  }
  return { algorithm: algorithm as ChecksumAlgorithm, digest: Buffer.from(digest, 'base64') };
}
