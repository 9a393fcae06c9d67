import { ArrayMaxSize, IsArray, IsBoolean, IsString } from 'class-validator';
import { Optional } from '@media/platform';
import type { AclSubjects, RpcRequest } from '@media/contracts';

/** Payload shapes of users' NATS subjects, checked like HTTP bodies (loc starts at `data`). */
export class UserIdsRequest implements RpcRequest<typeof AclSubjects.usersGetMany> {
  @IsArray()
  @ArrayMaxSize(5000)
  @IsString({ each: true })
  ids!: string[];
}

export class UsersExistRequest extends UserIdsRequest implements RpcRequest<typeof AclSubjects.usersExists> {
  @Optional()
  @IsBoolean()
  active_only?: boolean;
}

export class ReportsRequest implements RpcRequest<typeof AclSubjects.usersReports> {
  @IsString()
  manager_id!: string;
}

export class PermissionsRequest implements RpcRequest<typeof AclSubjects.usersPermissions> {
  @IsString()
  user_id!: string;
}
