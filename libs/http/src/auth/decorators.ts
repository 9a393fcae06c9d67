import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Permission } from '@media/contracts';
import { PUBLIC_EXTENSION } from '../http/openapi-security';
import type { AuthUser } from '@media/core';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_PERMISSIONS = 'auth:permissions';
export const JSON_ONLY = 'http:json-only';

/** No token needed (docs/api/contract.md §1 public paths); the OpenAPI document says so (`security: []`). */
export const Public = () =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));

/** Every listed permission is needed; `*` grants all. */
export const RequirePermissions = (...permissions: Permission[]) =>
  SetMetadata(REQUIRED_PERMISSIONS, permissions);

/** The endpoint takes `application/json` bodies only; forms answer 415. */
export const JsonOnly = () => SetMetadata(JSON_ONLY, true);

/** The authenticated caller. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AuthUser => {
  return context.switchToHttp().getRequest<{ user: AuthUser }>().user;
});
