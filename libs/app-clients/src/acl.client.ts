import { Inject, Injectable } from '@nestjs/common';
import { AclSubjects, idPages, type UserProfile } from '@media/contracts';
import { ValidationFailed } from '@media/core';
import { RpcClient } from '@media/messaging';

/**
 * Pages of one call in flight at once. One: each page gets the whole request deadline; sent
 * together, a page of 1,000 profiles that takes acl over a second on a loaded machine made the
 * pages queued behind it miss theirs (a 503 for the whole call).
 */
const PAGES_IN_FLIGHT = 1;

/** `ask` for each page, at most PAGES_IN_FLIGHT at a time; the answers in page order. */
async function paged<T>(ids: Iterable<string>, ask: (page: string[]) => Promise<T>): Promise<T[]> {
  const pages = idPages([...ids].map((id) => id.toLowerCase()));
  const answers: T[] = new Array<T>(pages.length);
  let next = 0;
  const worker = async () => {
    while (next < pages.length) {
      const index = next++;
      answers[index] = await ask(pages[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAGES_IN_FLIGHT, pages.length) }, worker));
  return answers;
}

/**
 * What an app asks acl over NATS: user profiles, existence, reports and group members. Many ids
 * go in pages of `ACL_USERS_MAX_IDS` (acl refuses a longer request), one page after another,
 * never one request per user; any page failing fails the whole. acl not answering is a 503 `upstream_unavailable`
 * (docs/api/contract.md §5), as every `RpcClient` request.
 */
@Injectable()
export class AclClient {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** Profiles of the given users by id (one request per page of ids, never one per user); unknown ids are absent. */
  async profiles(ids: Iterable<string>): Promise<Map<string, UserProfile>> {
    const pages = await paged(ids, (page) => this.rpc.send(AclSubjects.usersGetMany, { ids: page }));
    return new Map(pages.flat().map((profile) => [profile.id.toLowerCase(), profile]));
  }

  /** One user's profile, or undefined when acl knows no such user. */
  async profile(id: string): Promise<UserProfile | undefined> {
    return (await this.profiles([id])).get(id.toLowerCase());
  }

  /** The given ids acl knows (only ACTIVE users with `activeOnly`), lower-cased. */
  async existing(ids: Iterable<string>, activeOnly = false): Promise<Set<string>> {
    const pages = await paged(ids, (page) =>
      this.rpc.send(AclSubjects.usersExists, { ids: page, ...(activeOnly ? { active_only: true } : {}) }),
    );
    return new Set(pages.flatMap((page) => page.existing.map((id) => id.toLowerCase())));
  }

  /** A 422 at `loc` (e.g. `["body","bm_id"]`) unless acl knows the user. */
  async requireUser(id: string, loc: string[]): Promise<void> {
    if (!(await this.existing([id])).has(id.toLowerCase())) {
      throw ValidationFailed.at(loc, `User ${id} does not exist`, 'value_error');
    }
  }

  /** The users whose manager is `managerId`, with their profiles. */
  reports(managerId: string): Promise<UserProfile[]> {
    return this.rpc.send(AclSubjects.usersReports, { manager_id: managerId });
  }

  /** Ids of a group's members; undefined for a group acl does not know. */
  async groupMembers(groupId: string): Promise<string[] | undefined> {
    const found = await this.rpc.send(AclSubjects.groupsMembers, { group_id: groupId });
    return found?.user_ids;
  }
}
