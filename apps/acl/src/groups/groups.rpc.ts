import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AclSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import { GroupMembersRequest } from './dto/group.dto';
import { GroupMembershipsService } from './group-memberships.service';

/** groups' NATS responder (docs/api/contract.md §5); a malformed payload is a 422 at `["data", ...]`. */
@Controller()
export class GroupsRpc {
  constructor(@Inject(GroupMembershipsService) private readonly memberships: GroupMembershipsService) {}

  @MessagePattern(AclSubjects.groupsMembers)
  members(
    @RpcPayload(GroupMembersRequest) data: GroupMembersRequest,
  ): Promise<RpcReply<typeof AclSubjects.groupsMembers>> {
    return this.memberships.members(data.group_id);
  }
}
