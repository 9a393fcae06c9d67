import { Inject, Injectable } from '@nestjs/common';
import { AclSubjects, idPages, type UserProfile } from '@media/contracts';
import { RpcClient, ValidationFailed } from '@media/platform';

/** What payment asks acl over NATS; any failure to answer is a 503 (CONTRACT §5). */
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

  /**
   * Profiles of many users: one request per page of `ACL_USERS_MAX_IDS` ids (acl refuses a longer
   * one), the pages asked at once; unknown ids are absent. Any page failing fails the whole.
   */
  async profiles(ids: string[]): Promise<Map<string, UserProfile>> {
    const pages = await Promise.all(
      idPages(ids).map((page) => this.rpc.send(AclSubjects.usersGetMany, { ids: page })),
    );
    return new Map(pages.flat().map((p) => [p.id, p]));
  }
}
