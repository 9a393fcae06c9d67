import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, urlencoded } from 'express';
import { PayloadTooLarge, UnsupportedMediaType, type DomainError } from '../errors/domain-errors';
import { INVALID_JSON, JSON_TOO_DEEP, markFormBody } from '../validation/form-body';
import { isMultipart } from './multipart';

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

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

export interface BodyLimits {
  /** JSON and urlencoded bodies. */
  body: number;
  /** Multipart bodies, files included. */
  upload: number;
}

/** The deepest JSON nesting accepted (docs/api/contract.md §2); deeper bodies are 422 `json_invalid`. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max` levels (iterative: no stack to overflow). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Parses JSON and urlencoded bodies (docs/api/contract.md §3), counting bytes as they arrive. Problems are
 * not answered here but kept on the request, so that a missing token still answers 401 first.
 * Multipart bodies are left unread: only routes that declare `@Multipart()` read them, after
 * authentication (see BodyGuard). A body that is not read is not drained either: the answer
 * closes the connection.
 */
export function bodyParsing(limits: BodyLimits): RequestHandler {
  const parseJson = json({ limit: limits.body, strict: false, type: () => true });
  const parseForm = urlencoded({
    limit: limits.body,
    extended: false,
    parameterLimit: 10_000,
    type: () => true,
  });

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

    if (type === 'application/json' || type.endsWith('+json')) {
      if (declared > limits.body) return (tooLarge(req, res, limits.body), next());
      return parseJson(req, res, (err?: { type?: string }) => {
        if (err?.type === 'entity.too.large') tooLarge(req, res, limits.body);
        else if (err?.type === 'entity.parse.failed') req.body = INVALID_JSON;
        else if (err) unsupported(req, res, String(req.headers['content-type']));
        else if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) req.body = JSON_TOO_DEEP;
        next();
      });
    }
    if (type === 'application/x-www-form-urlencoded') {
      if (declared > limits.body) return (tooLarge(req, res, limits.body), next());
      return parseForm(req, res, (err?: { type?: string }) => {
        if (err?.type === 'entity.too.large') tooLarge(req, res, limits.body);
        else if (err) unsupported(req, res, String(req.headers['content-type']));
        else req.body = markFormBody(req.body ?? {});
        next();
      });
    }
    if (isMultipart(req)) {
      // Read (or refused) by BodyGuard once the route and the caller are known.
      leaveUnread(req, res);
      return next();
    }
    unsupported(req, res, type || 'none');
    next();
  };
}
