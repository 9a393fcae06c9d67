import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Permissions } from '@media/contracts';
import { Forbidden, hasPermission, type AuthUser } from '@media/core';
import type { Request } from 'express';
import { assertMayClaimFor, rawBody } from './claim-permission.guard';

/**
 * The permission a bulk action needs, checked once for the whole request before the body is
 * validated (docs/api/contract.md §1's order; §7.2): what the single action's route needs, so
 * `claim` as a single claim, `cancel` and `reassign` `tasks:assign`, the others `tasks:claim` or
 * `tasks:assign` (whether the caller may act on each task is that task's own 403). An unknown
 * action needs either, and is then a 422.
 */
@Injectable()
export class BulkPermissionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const user = req.user;
    if (!user) throw new Forbidden();
    const body = rawBody(req);
    if (body.action === 'claim') {
      assertMayClaimFor(user, body.user_id);
      return true;
    }
    if (body.action === 'cancel' || body.action === 'reassign') {
      if (!hasPermission(user, Permissions.tasksAssign)) {
        throw new Forbidden(`The ${body.action} action needs the tasks:assign permission.`);
      }
      return true;
    }
    if (!hasPermission(user, Permissions.tasksClaim) && !hasPermission(user, Permissions.tasksAssign)) {
      throw new Forbidden('Bulk task actions need the tasks:claim or tasks:assign permission.');
    }
    return true;
  }
}
