import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, urlencoded } from 'express';
import multer from 'multer';
import { PayloadTooLarge, UnsupportedMediaType, type DomainError } from '../errors/domain-errors';
import { INVALID_JSON, markFormBody } from '../validation/form-body';

export const ACCEPTED_BODY_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
] as const;

/** An error met while reading the body, raised after authentication (CONTRACT §1 order of checks). */
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

/**
 * Parses JSON, urlencoded and multipart bodies (CONTRACT §3). Problems are not answered here but
 * kept on the request, so that a missing token still answers 401 first; a body over the limit is
 * read at most up to the limit and the connection is closed after the 413.
 */
export function bodyParsing(limits: BodyLimits): RequestHandler {
  const parseJson = json({ limit: limits.body, strict: false, type: () => true });
  const parseForm = urlencoded({
    limit: limits.body,
    extended: false,
    parameterLimit: 10_000,
    type: () => true,
  });
  const parseMultipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limits.upload, fieldSize: limits.body, fields: 1000, files: 10 },
  }).any();

  const tooLarge = (req: RequestWithBodyError, res: Response, limit: number) => {
    req[BODY_ERROR] = new PayloadTooLarge(limit);
    res.setHeader('Connection', 'close');
    req.body = undefined;
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
        else if (err)
          req[BODY_ERROR] = new UnsupportedMediaType(
            String(req.headers['content-type']),
            ACCEPTED_BODY_TYPES,
          );
        next();
      });
    }
    if (type === 'application/x-www-form-urlencoded') {
      if (declared > limits.body) return (tooLarge(req, res, limits.body), next());
      return parseForm(req, res, (err?: { type?: string }) => {
        if (err?.type === 'entity.too.large') tooLarge(req, res, limits.body);
        else if (err)
          req[BODY_ERROR] = new UnsupportedMediaType(
            String(req.headers['content-type']),
            ACCEPTED_BODY_TYPES,
          );
        else req.body = markFormBody(req.body ?? {});
        next();
      });
    }
    if (type === 'multipart/form-data') {
      if (declared > limits.upload) return (tooLarge(req, res, limits.upload), next());
      return parseMultipart(req, res, (failure?: unknown) => {
        const err = failure as { code?: string } | undefined;
        if (err?.code === 'LIMIT_FILE_SIZE' || err?.code === 'LIMIT_FIELD_VALUE') {
          tooLarge(req, res, err.code === 'LIMIT_FILE_SIZE' ? limits.upload : limits.body);
        } else if (err) {
          req[BODY_ERROR] = new UnsupportedMediaType('multipart/form-data (malformed)', ACCEPTED_BODY_TYPES);
          res.setHeader('Connection', 'close');
        } else req.body = markFormBody({ ...(req.body as object) });
        next();
      });
    }
    req[BODY_ERROR] = new UnsupportedMediaType(type || 'none', ACCEPTED_BODY_TYPES);
    next();
  };
}
