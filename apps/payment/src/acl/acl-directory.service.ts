import { Inject, Injectable } from '@nestjs/common';
import { AclSubjects, type UserProfile } from '@media/contracts';
import { RpcClient, ValidationFailed } from '@media/platform';

/** What payment asks acl over NATS; any failure to answer is a 503 (docs/api/contract.md §5). */
@Injectable()
export class AclDirectory {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** A target or collection must name a user acl knows: else 422 at `["body","bm_id"]`. */
  async assertUser(id: string): Promise<void> {
    const { existing } = await this.rpc.send(AclSubjects.usersExists, { ids: [id] });
    if (!existing.includes(id)) {
      throw ValidationFailed.at(['body', 'bm_id'], `User ${id} does not exist`, 'value_error');
    }
  }

  /** The users whose manager is `managerId`, with their profiles. */
  reports(managerId: string): Promise<UserProfile[]> {
    return this.rpc.send(AclSubjects.usersReports, { manager_id: managerId });
  }

  /** Profiles of many users in ONE request, whatever their number; unknown ids are absent. */
  async profiles(ids: string[]): Promise<Map<string, UserProfile>> {
    if (ids.length === 0) return new Map();
    const found = await this.rpc.send(AclSubjects.usersGetMany, { ids });
    return new Map(found.map((p) => [p.id, p]));
  }
}
