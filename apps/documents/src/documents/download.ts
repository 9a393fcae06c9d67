import type { ByteRange } from '../storage/document-storage';

/** A strong entity tag from the content's SHA-256. */
export function entityTag(sha256: string): string {
  return `"${sha256}"`;
}

/**
 * Whether `If-None-Match` matches the current tag (RFC 9110 §13.1.2: weak comparison, `*`
 * matches any current representation), so the answer is 304.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(etag);
}

export type RangeOutcome =
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  | { kind: 'unsatisfiable' };

/**
 * One `Range: bytes=...` against a representation of `size` bytes (RFC 9110 §14). A header that
 * is absent, malformed, of another unit or asks for several ranges is ignored (the whole content,
 * as the RFC allows); a well-formed single range none of whose bytes exist is unsatisfiable.
 * `If-Range` other than the current tag also means the whole content.
 */
export function parseRange(
  header: string | undefined,
  size: number,
  ifRange?: string,
  etag?: string,
): RangeOutcome {
  if (header === undefined) return { kind: 'full' };
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  if (match[1] !== '' && match[1].length > 15) return { kind: 'unsatisfiable' };
  if (match[1] === '') {
    // Suffix range: the last N bytes.
    const length = match[2].length > 15 ? Number.MAX_SAFE_INTEGER : Number(match[2]);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(match[1]);
  const last = match[2] === '' || match[2].length > 15 ? Number.MAX_SAFE_INTEGER : Number(match[2]);
  if (last < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(last, size - 1) } };
}

/**
 * `Content-Disposition: attachment` with the name twice (RFC 6266 §4.3): an ASCII fallback in
 * `filename` (other characters, quotes and backslashes as `_`) and the exact name in
 * `filename*` as UTF-8 percent-encoded (RFC 8187, which replaced RFC 5987).
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
