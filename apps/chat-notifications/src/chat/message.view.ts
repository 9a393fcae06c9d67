import type { ChatMessage } from './chat-message.entity';

/** A `chat_messages` row as SQL answers it. */
export interface MessageRow {
  id: string;
  room_id: string;
  sender: string;
  body: string | null;
  mentions: string[];
  edited_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
}

/**
 * A chat message as the API and the pushes show it (docs/api/contract.md §7.4): a deleted one
 * keeps its place with `body` null and `deleted_at` set.
 */
export interface MessageView {
  id: string;
  room_id: string;
  sender: string;
  body: string | null;
  mentions: string[];
  edited_at: string | null;
  deleted_at: string | null;
  created_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toMessageView(m: ChatMessage): MessageView {
  return {
    id: m.id,
    room_id: m.roomId,
    sender: m.sender,
    body: m.body,
    mentions: m.mentions,
    edited_at: iso(m.editedAt),
    deleted_at: iso(m.deletedAt),
    created_at: m.createdAt.toISOString(),
  };
}

export function rowToMessageView(r: MessageRow): MessageView {
  return {
    id: r.id,
    room_id: r.room_id,
    sender: r.sender,
    body: r.body,
    mentions: r.mentions,
    edited_at: iso(r.edited_at),
    deleted_at: iso(r.deleted_at),
    created_at: r.created_at.toISOString(),
  };
}
