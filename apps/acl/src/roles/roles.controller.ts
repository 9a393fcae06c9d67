import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/http';
import { RoleResponse } from './dto/role.response';
import type { RoleView } from './role.view';
import { RolesService } from './roles.service';

/** `GET /acl/api/v1/roles`: the roles an admin can assign, with what each grants (a short fixed list, not paginated). */
@ApiTags('roles')
@ApiBearerAuth()
@Controller('api/v1/roles')
export class RolesController {
  constructor(@Inject(RolesService) private readonly roles: RolesService) {}

  @Get()
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'Every role, by code (not paginated)' })
  @ApiSuccess(RoleResponse, { list: 'array' })
  @ApiErrors(401, 403)
  list(): Promise<RoleView[]> {
    return this.roles.list();
  }
}
