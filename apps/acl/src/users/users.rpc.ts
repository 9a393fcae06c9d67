import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AclSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import {
  HoldingRequest,
  PermissionsRequest,
  ReportsRequest,
  UserIdsRequest,
  UsersExistRequest,
} from './dto/rpc.dto';
import { UserProfilesService } from './user-profiles.service';

/** users' NATS responders (docs/api/contract.md §5); a malformed payload comes back as a 422 at `["data", ...]`. */
@Controller()
export class UsersRpc {
  constructor(@Inject(UserProfilesService) private readonly profiles: UserProfilesService) {}

  @MessagePattern(AclSubjects.usersGetMany)
  getMany(
    @RpcPayload(UserIdsRequest) data: UserIdsRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersGetMany>> {
    return this.profiles.getMany(data.ids);
  }

  @MessagePattern(AclSubjects.usersReports)
  reports(
    @RpcPayload(ReportsRequest) data: ReportsRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersReports>> {
    return this.profiles.reports(data.manager_id);
  }

  @MessagePattern(AclSubjects.usersExists)
  exists(
    @RpcPayload(UsersExistRequest) data: UsersExistRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersExists>> {
    return this.profiles.exists(data.ids, data.active_only ?? false);
  }

  @MessagePattern(AclSubjects.usersPermissions)
  permissions(
    @RpcPayload(PermissionsRequest) data: PermissionsRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersPermissions>> {
    return this.profiles.permissions(data.user_id);
  }

  @MessagePattern(AclSubjects.usersHolding)
  holding(
    @RpcPayload(HoldingRequest) data: HoldingRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersHolding>> {
    return this.profiles.holding(data.permission);
  }
}
