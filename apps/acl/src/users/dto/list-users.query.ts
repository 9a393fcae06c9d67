import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { Optional } from '@media/kernel';
import { PageQuery } from '@media/http';
import type { UserStatus } from '@media/contracts';
import { USER_STATUSES } from '../user.entity';

/** `GET /acl/api/v1/users`: cursor list, newest first, optionally by status or role. */
export class ListUsersQuery extends PageQuery {
  @ApiPropertyOptional({ enum: USER_STATUSES })
  @Optional()
  @IsIn(USER_STATUSES)
  status?: UserStatus;

  @ApiPropertyOptional({ description: 'A role code' })
  @Optional()
  @IsString()
  @MaxLength(64)
  role?: string;
}
