import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';

/** Payload shapes of acl's NATS subjects, checked like HTTP bodies (loc starts at `data`). */
export class UserIdsRequest {
  @IsArray()
  @ArrayMaxSize(5000)
  @IsString({ each: true })
  ids!: string[];
}

export class UsersExistRequest extends UserIdsRequest {
  @IsOptional()
  @IsBoolean()
  active_only?: boolean;
}

export class ReportsRequest {
  @IsString()
  manager_id!: string;
}

export class PermissionsRequest {
  @IsString()
  user_id!: string;
}

export class GroupMembersRequest {
  @IsString()
  group_id!: string;
}
