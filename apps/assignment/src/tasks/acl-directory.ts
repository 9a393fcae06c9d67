import { Inject, Injectable } from '@nestjs/common';
import { AclSubjects, type UserProfile } from '@media/contracts';
import { RpcClient } from '@media/platform';

/** What assignment asks acl over NATS; acl not answering is a 503 (docs/api/contract.md §5). */
@Injectable()
export class AclDirectory {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** One user's profile (status, permissions, groups, name, email), or undefined when unknown. */
  async profile(userId: string): Promise<UserProfile | undefined> {
    const id = userId.toLowerCase();
    const profiles = await this.rpc.send(AclSubjects.usersGetMany, { ids: [id] });
    return profiles.find((p) => p.id.toLowerCase() === id);
  }
}
