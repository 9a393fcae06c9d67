import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AclSubjects, type AclRpc, type RpcEnvelope } from '@media/contracts';
import { validateDto } from '@media/platform';
import {
  GroupMembersRequest,
  PermissionsRequest,
  ReportsRequest,
  UserIdsRequest,
  UsersExistRequest,
} from './dto/rpc.dto';
import { ProfilesService } from './profiles.service';

type Req<S extends keyof AclRpc> = RpcEnvelope<AclRpc[S]['req']>;

/** acl's NATS responders; a malformed payload comes back as a 422 at `["data", ...]`. */
@Controller()
export class AclRpcController {
  constructor(@Inject(ProfilesService) private readonly profiles: ProfilesService) {}

  @MessagePattern(AclSubjects.usersGetMany)
  async getMany(@Payload() envelope: Req<typeof AclSubjects.usersGetMany>) {
    const data = await validateDto(UserIdsRequest, envelope?.data, ['data']);
    return this.profiles.getMany(data.ids);
  }

  @MessagePattern(AclSubjects.usersReports)
  async reports(@Payload() envelope: Req<typeof AclSubjects.usersReports>) {
    const data = await validateDto(ReportsRequest, envelope?.data, ['data']);
    return this.profiles.reports(data.manager_id);
  }

  @MessagePattern(AclSubjects.usersExists)
  async exists(@Payload() envelope: Req<typeof AclSubjects.usersExists>) {
    const data = await validateDto(UsersExistRequest, envelope?.data, ['data']);
    return this.profiles.exists(data.ids, data.active_only ?? false);
  }

  @MessagePattern(AclSubjects.usersPermissions)
  async permissions(@Payload() envelope: Req<typeof AclSubjects.usersPermissions>) {
    const data = await validateDto(PermissionsRequest, envelope?.data, ['data']);
    return this.profiles.permissions(data.user_id);
  }

  @MessagePattern(AclSubjects.groupsMembers)
  async groupMembers(@Payload() envelope: Req<typeof AclSubjects.groupsMembers>) {
    const data = await validateDto(GroupMembersRequest, envelope?.data, ['data']);
    return this.profiles.groupMembers(data.group_id);
  }
}
