import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Permissions, type Permission } from '@media/contracts';
import { Forbidden, hasPermission, type AuthUser } from '@media/platform';
import type { Request } from 'express';

const ANY_OF = 'assignment:any-permission';

/** 403 unless the caller holds at least one of the permissions (`*` grants all). */
@Injectable()
export class AnyPermissionGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const anyOf = this.reflector.get<Permission[]>(ANY_OF, context.getHandler()) ?? [];
    const user = context.switchToHttp().getRequest<Request & { user?: AuthUser }>().user;
    if (!user || !anyOf.some((p) => hasPermission(user, p))) throw new Forbidden();
    return true;
  }
}

export const RequireAnyPermission = (...permissions: Permission[]) =>
  applyDecorators(SetMetadata(ANY_OF, permissions), UseGuards(AnyPermissionGuard));

/**
 * Endpoint 4's first check (CONTRACT §4.4), before the body is validated: claiming for another
 * user needs `tasks:assign`, claiming for oneself `tasks:claim`. Any `user_id` that is not the
 * caller's id (a malformed one included) counts as another user.
 */
@Injectable()
export class ClaimPermissionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const user = req.user;
    if (!user) throw new Forbidden();
    const body: unknown = req.body;
    const given =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>).user_id
        : undefined;
    const forSelf =
      given === undefined || (typeof given === 'string' && given.toLowerCase() === user.id.toLowerCase());
    const needed = forSelf ? Permissions.tasksClaim : Permissions.tasksAssign;
    if (!hasPermission(user, needed)) {
      throw new Forbidden(
        forSelf
          ? 'Claiming a task needs the tasks:claim permission.'
          : 'Claiming a task on behalf of another user needs the tasks:assign permission.',
      );
    }
    return true;
  }
}
