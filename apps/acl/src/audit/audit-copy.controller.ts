import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions, type Page } from '@media/http';
import { AuditEntryResponse } from '@media/platform';
import { AuditCopyService } from './audit-copy.service';
import type { AuditCopyView } from './audit-copy.view';
import { AuditCopyQuery } from './dto/audit-copy.query';

/** `GET /acl/api/v1/audit/all`: every app's audit entries in one list (CONTRACT §8.3). */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('api/v1/audit')
export class AuditCopyController {
  constructor(@Inject(AuditCopyService) private readonly copy: AuditCopyService) {}

  @Get('all')
  @RequirePermissions(Permissions.auditRead)
  @ApiOperation({
    summary:
      'Every app’s audit entries (a copy fed within seconds of sealing), newest first (cursor), by app, resource, actor, action, request or time',
  })
  @ApiSuccess(AuditEntryResponse, { list: 'page' })
  @ApiErrors(401, [403, '`audit:read` is needed'], 422)
  all(@Query() query: AuditCopyQuery, @Req() req: Request): Promise<Page<AuditCopyView>> {
    return this.copy.list(query, req);
  }
}
