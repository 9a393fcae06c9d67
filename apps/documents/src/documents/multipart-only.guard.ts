import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isMultipart, UnsupportedMediaType } from '@media/platform';
import type { Request } from 'express';

/**
 * `@Multipart()` routes also take JSON and urlencoded bodies, which cannot carry a file: an
 * upload sent so is 415, not a 422 about fields it could never have filled.
 */
@Injectable()
export class MultipartOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!isMultipart(req)) throw new UnsupportedMediaType(type || 'none', ['multipart/form-data']);
    return true;
  }
}
