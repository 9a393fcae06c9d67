import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Permission } from '@media/contracts';
import { Forbidden, hasPermission, requiresAny, type AuthUser } from '@media/core';

const ANY_PERMISSION = 'auth:any-permission';

/**
 * 403 unless the caller holds at least one of the route's permissions (`*` grants all). A route
 * guard, so it runs after the global 401/413/415 guards and before validation (docs/api/contract.md §1 order).
 */
@Injectable()
export class AnyPermissionGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const wanted = this.reflector.get<Permission[]>(ANY_PERMISSION, context.getHandler()) ?? [];
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    if (!user || !wanted.some((permission) => hasPermission(user, permission))) {
      throw new Forbidden(requiresAny(wanted));
    }
    return true;
  }
}

/** The caller needs one of these permissions (where `RequirePermissions` needs all of them). */
export const RequireAnyPermission = (...permissions: Permission[]) =>
  applyDecorators(SetMetadata(ANY_PERMISSION, permissions), UseGuards(AnyPermissionGuard));
