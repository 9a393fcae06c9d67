/**
 * The caller's counts in each listed room, in one statement ($1 caller, $2 room ids), both
 * after the caller's `last_read_at` (docs/api/contract.md §4.1, §7.4):
 * - `unread`: live messages by others, an index-only range per room on the partial index
 *   chat_messages_unread_idx (room_id, created_at) INCLUDE (sender) WHERE deleted_at IS NULL;
 * - `mentions`: the caller's rows of chat_mentions (kept only for live messages, never for the
 *   sender), an index-only range on its key (user_id, room_id, created_at).
 */
export const ROOM_COUNTS_SQL = `
  SELECT m.room_id,
         (SELECT count(*) FROM chat_messages msg
           WHERE msg.room_id = m.room_id
             AND msg.deleted_at IS NULL
             AND msg.created_at > COALESCE(m.last_read_at, '-infinity')
             AND msg.sender <> m.user_id)::text AS unread,
         (SELECT count(*) FROM chat_mentions mn
           WHERE mn.user_id = m.user_id
             AND mn.room_id = m.room_id
             AND mn.created_at > COALESCE(m.last_read_at, '-infinity'))::text AS mentions
    FROM chat_room_members m
   WHERE m.user_id = $1 AND m.room_id = ANY($2::uuid[])`;
