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
import { Forbidden, hasPermission, type AuthUser } from '@media/platform';

const ANY_PERMISSION = 'payment:any-permission';

/**
 * 403 unless the caller holds at least one of the permissions. A route guard, so it runs after
 * the global 401/413/415 guards and before validation (CONTRACT §1 order).
 */
@Injectable()
export class AnyPermissionGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const wanted = this.reflector.get<Permission[]>(ANY_PERMISSION, context.getHandler()) ?? [];
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    if (!user || !wanted.some((permission) => hasPermission(user, permission))) throw new Forbidden();
    return true;
  }
}

/** The caller needs one of these permissions (endpoint 9: `commissions:read` or `:read-all`). */
export const RequireAnyPermission = (...permissions: Permission[]) =>
  applyDecorators(SetMetadata(ANY_PERMISSION, permissions), UseGuards(AnyPermissionGuard));
