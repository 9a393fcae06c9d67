import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, raw } from 'express';
import { PayloadTooLarge, UnsupportedMediaType, type DomainError } from '@media/core';
import {
  InvalidJsonBody,
  markCheckedText,
  markFormBody,
  jsonBytesProblem,
  mayHoldUnsafeText,
  narrowWideObjects,
  parseUrlEncoded,
} from '@media/kernel';
import { isMultipart } from './multipart';
import { recordRawBody } from './raw-body';
import { isStreamedBodyType } from './streamed-body';

export const ACCEPTED_BODY_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
] as const;

/** An error met while reading the body, raised after authentication (docs/api/contract.md §1 order of checks). */
export const BODY_ERROR = Symbol('body-error');
export type RequestWithBodyError = Request & { [BODY_ERROR]?: DomainError };

function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * The `charset` parameter of the content type, lowercased, when one is given. Bodies are UTF-8
 * (docs/api/contract.md §2): any other charset is 415, rather than a body decoded as something else.
 */
function charset(req: Request): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(req.headers['content-type'] ?? '');
  return match?.[1].toLowerCase();
}

const UTF8 = new Set(['utf-8', 'utf8']);

export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

export interface BodyLimits {
  /** JSON and urlencoded bodies. */
  body: number;
  /** Multipart bodies, files included. */
  upload: number;
}

/** The most fields an urlencoded body may hold (more is 413, as an oversized body). */
const MAX_FORM_FIELDS = 10_000;

/** What the bytes of a JSON body showed, kept between body-parser's `verify` and its answer. */
const JSON_BYTES = Symbol('json-bytes');
type RequestWithJsonBytes = Request & { [JSON_BYTES]?: { uncheckedText: boolean } };

/** A JSON body refused from its bytes, before it is parsed (json-bytes.ts). */
class RefusedJson extends Error {
  readonly type = 'json.refused';
}

/** A JSON body with an object too wide to parse whole: parsed from `bytes` instead (json-bytes.ts). */
class NarrowedJson extends Error {
  readonly type = 'json.narrowed';
  constructor(readonly bytes: Buffer) {
    super('JSON body with an object of more members than are read');
  }
}

/** The narrowed text parsed as body-parser would (`strict: false`: any JSON value). */
function parseNarrowed(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return new InvalidJsonBody('Invalid JSON');
  }
}

/**
 * Parses JSON and urlencoded bodies (docs/api/contract.md §3), counting bytes as they arrive. Problems are
 * not answered here but kept on the request, so that a missing token still answers 401 first.
 * Multipart bodies are left unread: only routes that declare `@Multipart()` read them, after
 * authentication (see BodyGuard). A body that is not read is not drained either: the answer
 * closes the connection.
 */
export function bodyParsing(limits: BodyLimits): RequestHandler {
  const parseJson = json({
    limit: limits.body,
    strict: false,
    type: () => true,
    verify: (req, _res, bytes) => {
      // An Idempotency-Key compares the body's bytes as sent (docs/api/contract.md §7.1).
      recordRawBody(req as Request, bytes);
      // Bounded work whatever the body (docs/api/contract.md §2): text that is not UTF-8, or
      // nested too deep, is refused before the parser builds anything.
      const problem = jsonBytesProblem(bytes);
      if (problem) throw new RefusedJson(problem);
      // Validation refuses what stands for the members cut (too_long), so the walk must run.
      const narrowed = narrowWideObjects(bytes);
      if (narrowed !== bytes) throw new NarrowedJson(narrowed);
      (req as RequestWithJsonBytes)[JSON_BYTES] = { uncheckedText: mayHoldUnsafeText(bytes) };
    },
  });
  // Forms are read as bytes and decoded by the platform's one decoding step (text-decoding.ts),
  // so a value that is not UTF-8 is refused at its field rather than stored as escapes or U+FFFD.
  const readForm = raw({ limit: limits.body, type: () => true });

  const tooLarge = (req: RequestWithBodyError, res: Response, limit: number) => {
    req[BODY_ERROR] = new PayloadTooLarge(limit);
    res.setHeader('Connection', 'close');
    req.body = undefined;
  };
  /**
   * A body left unread: Node reads and drops it after the answer when it is small and of known
   * size (so a proxy in front sees a clean exchange on a kept connection); any other is not read,
   * and the connection closes after the answer.
   */
  const leaveUnread = (req: Request, res: Response) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (!(declared <= limits.body) || req.headers['transfer-encoding'] !== undefined) {
      res.setHeader('Connection', 'close');
    }
  };
  const unsupported = (req: RequestWithBodyError, res: Response, type: string) => {
    req[BODY_ERROR] = new UnsupportedMediaType(type, ACCEPTED_BODY_TYPES);
    leaveUnread(req, res);
  };

  return (req: RequestWithBodyError, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const type = mediaType(req);
    const declared = Number(req.headers['content-length'] ?? NaN);

    const bodyCharset = charset(req);
    if (bodyCharset !== undefined && !UTF8.has(bodyCharset) && !isMultipart(req)) {
      unsupported(req, res, String(req.headers['content-type']));
      return next();
    }
    if (type === 'application/json' || type.endsWith('+json')) {
      if (declared > limits.body) return (tooLarge(req, res, limits.body), next());
      return parseJson(req, res, (err?: { type?: string; message?: string }) => {
        if (err instanceof NarrowedJson) req.body = parseNarrowed(err.bytes);
        else if (err?.type === 'entity.too.large') tooLarge(req, res, limits.body);
        else if (err?.type === 'entity.parse.failed') req.body = new InvalidJsonBody('Invalid JSON');
        else if (err?.type === 'json.refused') req.body = new InvalidJsonBody(String(err.message));
        else if (err) unsupported(req, res, String(req.headers['content-type']));
        else if ((req as RequestWithJsonBytes)[JSON_BYTES]?.uncheckedText === false)
          markCheckedText(req.body);
        next();
      });
    }
    if (type === 'application/x-www-form-urlencoded') {
      if (declared > limits.body) return (tooLarge(req, res, limits.body), next());
      return readForm(req, res, (err?: { type?: string }) => {
        if (err?.type === 'entity.too.large') tooLarge(req, res, limits.body);
        else if (err) unsupported(req, res, String(req.headers['content-type']));
        else {
          const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          try {
            req.body = markFormBody(parseUrlEncoded(bytes.toString('latin1'), MAX_FORM_FIELDS, true));
          } catch {
            tooLarge(req, res, limits.body);
          }
        }
        next();
      });
    }
    if (isMultipart(req) || isStreamedBodyType(type)) {
      // Read (or refused) by BodyGuard, or streamed by the route, once the route and the caller are known.
      leaveUnread(req, res);
      return next();
    }
    unsupported(req, res, type || 'none');
    next();
  };
}
