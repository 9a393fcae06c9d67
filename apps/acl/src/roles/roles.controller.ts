import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { RequirePermissions } from '@media/platform';
import { RolesService } from './roles.service';

/** `GET /acl/api/v1/roles`: the roles an admin can assign, with what each grants (a short fixed list, not paginated). */
@ApiTags('roles')
@ApiBearerAuth()
@Controller('api/v1/roles')
export class RolesController {
  constructor(@Inject(RolesService) private readonly roles: RolesService) {}

  @Get()
  @RequirePermissions(Permissions.usersAdmin)
  list() {
    return this.roles.list();
  }
}
