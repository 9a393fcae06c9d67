import { CanActivate, ExecutionContext, Inject, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import {
  Forbidden,
  UnsupportedMediaType,
  UpstreamUnavailable,
  ValidationFailed,
  hasPermission,
  requiresAll,
  userFromClaims,
  type AuthUser,
  authFailure,
  bearerToken,
  VerifiedTokens,
  requestContext,
} from '@media/core';
import { ACCEPTED_BODY_TYPES, BODY_ERROR, hasBody, type RequestWithBodyError } from '../http/body-parsing';
import { isStreamedBodyType, STREAMED_BODY } from '../http/streamed-body';
import { isMultipart, MULTIPART, readMultipart, type MultipartOptions } from '../http/multipart';
import type { PlatformConfig } from '@media/core';
import { InjectConfig, InvalidJsonBody } from '@media/kernel';
import { IS_PUBLIC, JSON_ONLY, REQUIRED_PERMISSIONS } from './decorators';
import { jwtStrategyName } from './jwt.strategy';

function isPublic(reflector: Reflector, context: ExecutionContext): boolean {
  return reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
}

/** Step 1 of docs/api/contract.md §1's order: 401 unless the route is public. */
export function createJwtAuthGuard(app: string): Type<CanActivate> {
  @Injectable()
  class JwtAuthGuard extends AuthGuard(jwtStrategyName(app)) {
    constructor(
      @Inject(Reflector) private readonly reflector: Reflector,
      @Inject(VerifiedTokens) private readonly verified: VerifiedTokens,
    ) {
      super();
    }

    override canActivate(context: ExecutionContext) {
      if (context.getType() !== 'http' || isPublic(this.reflector, context)) return true;
      // Every answer to a request with a token is the caller's own: no cache keeps it, unless the
      // route sets its own policy (docs/api/contract.md §2 "Caching and hosts").
      context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
      // A token verified before (by passport, below) is not verified again until it expires.
      const req = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
      const token = bearerToken(req.headers.authorization);
      const claims = token === undefined ? undefined : this.verified.get(token);
      if (!claims) return super.canActivate(context);
      req.user = this.handleRequest(null, userFromClaims(claims), undefined);
      return true;
    }

    override handleRequest<T>(error: unknown, user: T, info: unknown): T {
      // acl unreachable while its keys were needed: 503, so clients keep their token (passport
      // reports the key provider's failure as `info`).
      const cause = error ?? info;
      if (cause instanceof UpstreamUnavailable) throw cause;
      if (error || !user) throw authFailure(cause);
      // From here on, logs and NATS requests of this request carry the caller's id (and its
      // token's version, so the apps it calls refuse it once revoked).
      const context = requestContext.getStore();
      if (context) {
        context.user_id = (user as unknown as AuthUser).id;
        context.user_ver = (user as unknown as AuthUser).ver;
        context.user_name = (user as unknown as AuthUser).name;
      }
      return user;
    }
  }
  return JwtAuthGuard;
}

/**
 * Step 2: 413/415 found while reading the body, JSON-only endpoints refusing forms, and
 * multipart bodies, read here (after authentication) by the routes that declare `@Multipart()`.
 */
@Injectable()
export class BodyGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @InjectConfig() private readonly config: PlatformConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithBodyError>();
    const error = req[BODY_ERROR];
    if (error) throw error;
    const multipart = this.reflector.getAllAndOverride<MultipartOptions | undefined>(MULTIPART, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (multipart?.only && !isMultipart(req)) {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      throw new UnsupportedMediaType(type || 'none', ['multipart/form-data']);
    }
    if (isMultipart(req) && req.body === undefined) {
      if (!multipart) {
        throw new UnsupportedMediaType(
          'multipart/form-data',
          ACCEPTED_BODY_TYPES.filter((t) => !t.startsWith('multipart')),
        );
      }
      await readMultipart(req, http.getResponse(), multipart, {
        upload: this.config.limits.upload,
        field: this.config.limits.body,
      });
    }
    const streamed = this.reflector.getAllAndOverride<string | undefined>(STREAMED_BODY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const bodyType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (isStreamedBodyType(bodyType) && streamed !== bodyType && hasBody(req)) {
      throw new UnsupportedMediaType(bodyType, ACCEPTED_BODY_TYPES);
    }
    const jsonOnly = this.reflector.getAllAndOverride<boolean>(JSON_ONLY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (jsonOnly && type && type !== 'application/json' && !type.endsWith('+json')) {
      throw new UnsupportedMediaType(type, ['application/json']);
    }
    return true;
  }
}

/** Step 3: 403 naming the permissions of @RequirePermissions the caller lacks. */
@Injectable()
export class PermissionsGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const required = this.reflector.getAllAndOverride<string[]>(REQUIRED_PERMISSIONS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required?.length) return true;
    const user = context.switchToHttp().getRequest<Request & { user?: AuthUser }>().user;
    const missing = required.filter((permission) => !user || !hasPermission(user, permission));
    if (missing.length > 0) throw new Forbidden(requiresAll(missing));
    return true;
  }
}

/**
 * Step 4: a JSON body refused while it was read (malformed, not UTF-8, too deep) is 422
 * `json_invalid` at `["body"]` once the permissions are checked (docs/api/contract.md §1 order of
 * checks), on every route: one that takes no body refuses it too (docs/api/contract.md §2).
 */
@Injectable()
export class MalformedBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    if (body instanceof InvalidJsonBody) throw ValidationFailed.at(['body'], body.msg, 'json_invalid');
    return true;
  }
}
