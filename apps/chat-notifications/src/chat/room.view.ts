import type { MemberRole } from './chat-room-member.entity';
import type { RoomType } from './chat-room.entity';

/** A `chat_rooms` row as SQL answers it. */
export interface RoomRow {
  id: string;
  name: string;
  room_type: RoomType;
  group_id: string;
  document_id: string | null;
  created_by: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A `chat_room_members` row as SQL answers it. */
export interface MemberRow {
  id: string;
  room_id: string;
  user_id: string;
  role: MemberRole;
  joined_at: Date;
  last_read_at: Date | null;
}

/** ChatRoomMember of the seed. */
export interface MemberView {
  id: string;
  user: string;
  role: MemberRole;
  joined_at: string;
  last_read_at: string | null;
}

/** ChatRoom of the seed, with the caller's counts (strings). */
export interface RoomView {
  id: string;
  name: string;
  room_type: RoomType;
  group_id: string;
  document_id: string | null;
  created_by: string;
  is_active: boolean;
  members: MemberView[];
  unread_count: string;
  mention_count: string;
  created_at: string;
  updated_at: string;
}

/** The caller's counts in a room. */
export interface RoomCounts {
  unread: string;
  mentions: string;
}

export function toMemberView(m: MemberRow): MemberView {
  return {
    id: m.id,
    user: m.user_id,
    role: m.role,
    joined_at: m.joined_at.toISOString(),
    last_read_at: m.last_read_at ? m.last_read_at.toISOString() : null,
  };
}

export function toRoomView(r: RoomRow, members: MemberView[], counts: RoomCounts | undefined): RoomView {
  return {
    id: r.id,
    name: r.name,
    room_type: r.room_type,
    group_id: r.group_id,
    document_id: r.document_id,
    created_by: r.created_by,
    is_active: r.is_active,
    members,
    unread_count: counts?.unread ?? '0',
    mention_count: counts?.mentions ?? '0',
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
