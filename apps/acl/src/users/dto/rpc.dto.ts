import { ArrayMaxSize, IsArray, IsBoolean, IsString } from 'class-validator';
import { ACL_USERS_MAX_IDS, type AclSubjects, type RpcRequest } from '@media/contracts';
import { Optional } from '@media/kernel';

/** Payload shapes of users' NATS subjects, checked like HTTP bodies (loc starts at `data`). */
export class UserIdsRequest implements RpcRequest<typeof AclSubjects.usersGetMany> {
  @IsArray()
  @ArrayMaxSize(ACL_USERS_MAX_IDS)
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

export class HoldingRequest implements RpcRequest<typeof AclSubjects.usersHolding> {
  @IsString()
  permission!: string;
}
