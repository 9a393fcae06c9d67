import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { IsCleanText, IsDateTime, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';

/**
 * `GET /acl/api/v1/audit/all`: every app's entries, newest first; each filter narrows,
 * `from`..`to` is inclusive..exclusive on `at`.
 */
export class AuditCopyQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SERVICE_NAMES, description: 'Only this app’s entries' })
  @Optional()
  @IsIn(SERVICE_NAMES)
  app?: ServiceName;

  @ApiPropertyOptional({ example: 'booking' })
  @Optional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  resource_type?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  resource_id?: string;

  @ApiPropertyOptional({ description: 'A user id, or `<app>:<job or consumer>` for the system' })
  @Optional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  actor_id?: string;

  @ApiPropertyOptional({ example: 'user.login.failed' })
  @Optional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  action?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  request_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this time' })
  @Optional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries before this time' })
  @Optional()
  @IsDateTime()
  to?: string;
}
