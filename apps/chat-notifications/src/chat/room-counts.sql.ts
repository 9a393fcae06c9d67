/**
 * The caller's unread count of each listed room, in one statement ($1 caller, $2 room ids): each
 * count an index range on chat_messages (room_id, created_at) after the caller's `last_read_at`
 * (docs/api/contract.md §4.1: messages by others after the marker).
 */
export const ROOM_COUNTS_SQL = `
  SELECT m.room_id,
         (SELECT count(*) FROM chat_messages msg
           WHERE msg.room_id = m.room_id
             AND msg.created_at > COALESCE(m.last_read_at, '-infinity')
             AND msg.sender <> m.user_id)::text AS unread
    FROM chat_room_members m
   WHERE m.user_id = $1 AND m.room_id = ANY($2::uuid[])`;
