import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Permissions } from '@media/contracts';
import { Forbidden, hasPermission, type AuthUser } from '@media/core';
import type { Request } from 'express';

/** The JSON body's fields before validation (the guard runs first), or `{}`. */
export function rawBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/**
 * Claiming for oneself needs `tasks:claim`, for another user `tasks:assign` (403 otherwise). Any
 * `user_id` that is not the caller's id (a malformed one included) counts as another user.
 */
export function assertMayClaimFor(user: AuthUser, given: unknown): void {
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
}

/** The claim's first check (docs/api/contract.md §4.4), before the body is validated. */
@Injectable()
export class ClaimPermissionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    if (!req.user) throw new Forbidden();
    assertMayClaimFor(req.user, rawBody(req).user_id);
    return true;
  }
}
