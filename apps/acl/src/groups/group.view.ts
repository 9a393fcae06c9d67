import type { GroupMember } from './group-member.entity';
import type { Group } from './group.entity';

/** A group as acl's HTTP API shows it. */
export interface GroupView {
  id: string;
  name: string;
  member_count: number;
  created_at: string;
  updated_at: string;
}

/** One membership (`POST /groups/{id}/members`). */
export interface MembershipView {
  group_id: string;
  user_id: string;
  created_at: string;
}

export function toGroupView(group: Group, memberCount: number): GroupView {
  return {
    id: group.id,
    name: group.name,
    member_count: memberCount,
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

export function toMembershipView(row: GroupMember): MembershipView {
  return { group_id: row.groupId, user_id: row.userId, created_at: row.createdAt.toISOString() };
}
