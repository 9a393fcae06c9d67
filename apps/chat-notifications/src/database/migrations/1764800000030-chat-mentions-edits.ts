import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mentions, edits and deletions of chat messages (docs/api/contract.md §7.4). A deleted message
 * stays as a tombstone (body null, deleted_at set). `chat_mentions` holds one row per mentioned
 * user other than the sender, keyed for the mention count of a room (a range after the user's
 * read marker, like the unread count); a deletion removes the message's rows.
 */
export class ChatMentionsEdits1764800000030 implements MigrationInterface {
  name = 'ChatMentionsEdits1764800000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat_messages ALTER COLUMN body DROP NOT NULL`);
    await q.query(`
      ALTER TABLE chat_messages
        ADD COLUMN mentions uuid[] NOT NULL DEFAULT '{}',
        ADD COLUMN edited_at timestamptz(3),
        ADD COLUMN deleted_at timestamptz(3),
        ADD CONSTRAINT chat_messages_tombstone_check CHECK ((deleted_at IS NULL) = (body IS NOT NULL))`);
    // The unread count reads only live messages: with the sender in the index it is an
    // index-only range per room after the read marker.
    await q.query(`
      CREATE INDEX chat_messages_unread_idx ON chat_messages (room_id, created_at) INCLUDE (sender)
       WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE chat_mentions (
        user_id uuid NOT NULL,
        room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL,
        message_id uuid NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, room_id, created_at, message_id)
      )`);
    await q.query(`CREATE INDEX chat_mentions_message_idx ON chat_mentions (message_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_mentions`);
    await q.query(`DROP INDEX chat_messages_unread_idx`);
    await q.query(`DELETE FROM chat_messages WHERE body IS NULL`);
    await q.query(`
      ALTER TABLE chat_messages
        DROP CONSTRAINT chat_messages_tombstone_check,
        DROP COLUMN deleted_at,
        DROP COLUMN edited_at,
        DROP COLUMN mentions`);
    await q.query(`ALTER TABLE chat_messages ALTER COLUMN body SET NOT NULL`);
  }
}
