import type { NextFunction, Request, Response } from 'express';

/**
 * Text that did not decode as UTF-8: a query value, a form field, a multipart text field or a path
 * segment. It stands in the value so that validation answers 422 `value_error` at the field's loc
 * (docs/api/contract.md §2), instead of the U+FFFD replacement (or the raw escapes) reaching a database.
 */
export class InvalidText {
  constructor(readonly raw: string) {}

  toString(): string {
    return '\uFFFD';
  }
}

export const INVALID_UTF8 = 'Text must be valid UTF-8';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes as UTF-8, or InvalidText when they are not (an overlong form, a surrogate, a stray byte). */
export function decodeUtf8(bytes: Uint8Array, raw: string): string | InvalidText {
  try {
    return utf8.decode(bytes);
  } catch {
    return new InvalidText(raw);
  }
}

const hex = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

/**
 * One `application/x-www-form-urlencoded` component (a query or form key or value), percent-decoded
 * byte by byte and then read as strict UTF-8. `+` is a space; a `%` not followed by two hex digits
 * stays as it is (as Node's querystring leaves it). The single decoding step of the platform.
 */
export function decodeComponent(component: string, plusIsSpace = true): string | InvalidText {
  // Most components are plain ASCII with no escapes: nothing to do.
  if (!/[%+\u0080-\uffff]/.test(component)) return component;
  const bytes = Buffer.from(plusIsSpace ? component.replaceAll('+', ' ') : component, 'latin1');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] === 0x25 && i + 2 < bytes.length && hex(bytes[i + 1]) && hex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16);
      i += 2;
    } else out[n++] = bytes[i];
  }
  return decodeUtf8(out.subarray(0, n), component);
}

/** A form body with more fields than the platform reads (answered 413, as an oversized body). */
export class TooManyPairs extends Error {
  constructor(readonly limit: number) {
    super(`More than ${limit} form fields`);
  }
}

/** A decoded query string or form body: repeated keys become lists (docs/api/contract.md §3). */
export type DecodedForm = Record<string, string | InvalidText | (string | InvalidText)[]>;

/**
 * Parses `a=1&b=2&b=3` with decodeComponent. A key that is not UTF-8 is kept under its raw text,
 * holding InvalidText, so it is refused at its own loc. Past `maxPairs` pairs the rest is
 * ignored (as Node's querystring does with a query), or, with `strict`, TooManyPairs is thrown.
 */
export function parseUrlEncoded(text: string, maxPairs = 1000, strict = false): DecodedForm {
  const out = Object.create(null) as DecodedForm;
  if (!text) return out;
  let pairs = 0;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    if (++pairs > maxPairs) {
      if (strict) throw new TooManyPairs(maxPairs);
      break;
    }
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const key = decodeComponent(rawKey);
    const value = key instanceof InvalidText ? key : decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    const name = key instanceof InvalidText ? rawKey : key;
    const current = out[name];
    if (current === undefined) out[name] = value;
    else if (Array.isArray(current)) current.push(value);
    else out[name] = [current, value];
  }
  return out;
}

/** Express's `query parser`: the query string through the same decoding step as form bodies. */
export const parseQueryString = (text: string): DecodedForm => parseUrlEncoded(text);

/**
 * Path segments that are not UTF-8 once decoded (or hold a broken escape) are replaced with `%00` before routing: Express
 * would answer its own 400 (`Failed to decode param`), and the route's parameter, now holding
 * NUL, is refused by validation as 422 `value_error` at `["path", <name>]` like any NUL.
 */
export function pathDecoding(req: Request, _res: Response, next: NextFunction): void {
  const url = req.url;
  if (!url.includes('%')) return next();
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  let changed = false;
  const segments = path.split('/').map((segment) => {
    if (!segment.includes('%')) return segment;
    try {
      // What the router will do with it: a bad escape or invalid UTF-8 throws.
      decodeURIComponent(segment);
      return segment;
    } catch {
      changed = true;
      return '%00';
    }
  });
  if (changed) req.url = segments.join('/') + (query === -1 ? '' : url.slice(query));
  next();
}
