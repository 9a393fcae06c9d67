import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import type { AclSubjects, RpcRequest } from '@media/contracts';
import { IsName } from '@media/kernel';
import { PageQuery } from '@media/http';

/** `POST /acl/api/v1/groups`. */
export class CreateGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 150 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(150)
  @IsName()
  name!: string;
}

/** `POST /acl/api/v1/groups/{id}/members`. */
export class AddMemberDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  user_id!: string;
}

export class GroupIdParams {
  @IsUUID('all')
  id!: string;
}

export class GroupMemberParams {
  @IsUUID('all')
  id!: string;

  @IsUUID('all')
  user_id!: string;
}

/** `GET /acl/api/v1/groups`: by name (byte order), then id. */
export class ListGroupsQuery extends PageQuery {}

/** `acl.groups.members`, checked like an HTTP body (loc starts at `data`). */
export class GroupMembersRequest implements RpcRequest<typeof AclSubjects.groupsMembers> {
  @IsString()
  group_id!: string;
}
