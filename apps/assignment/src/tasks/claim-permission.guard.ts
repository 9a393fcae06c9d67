import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Permissions } from '@media/contracts';
import { Forbidden, hasPermission, type AuthUser } from '@media/platform';
import type { Request } from 'express';

/** Claims need `tasks:claim` or `tasks:assign`: the platform's any-of guard. */
export { AnyPermissionGuard, RequireAnyPermission } from '@media/platform';

/**
 * Endpoint 4's first check (docs/api/contract.md §4.4), before the body is validated: claiming for another
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
