import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Chat rooms, their members and messages: the tables the chat feature owns. */
export class CreateChat1764800000000 implements MigrationInterface {
  name = 'CreateChat1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chat_rooms (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        room_type text NOT NULL,
        group_id text NOT NULL,
        document_id uuid,
        created_by uuid NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        -- 'low-uuid:high-uuid' of a DIRECT room: the unique index makes two simultaneous
        -- creations for one pair end in one room
        direct_key text,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT chat_rooms_type_check CHECK (room_type IN ('GROUP', 'DIRECT')),
        CONSTRAINT chat_rooms_direct_key_check CHECK ((room_type = 'DIRECT') = (direct_key IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX chat_rooms_direct_key ON chat_rooms (direct_key) WHERE direct_key IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX chat_rooms_document_idx ON chat_rooms (document_id) WHERE document_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE chat_room_members (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        role text NOT NULL,
        joined_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        last_read_at timestamptz(3),
        CONSTRAINT chat_room_members_role_check CHECK (role IN ('ADMIN', 'MEMBER'))
      )`);
    await q.query(`CREATE UNIQUE INDEX chat_room_members_room_user ON chat_room_members (room_id, user_id)`);
    // The caller's rooms: a keyset list walks this index (the room order is the room's own).
    await q.query(`CREATE INDEX chat_room_members_user_idx ON chat_room_members (user_id, room_id)`);
    await q.query(`
      CREATE TABLE chat_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
        sender uuid NOT NULL,
        body text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    // Serves the newest-first message list and the unread counts (messages after a marker).
    await q.query(`CREATE INDEX chat_messages_room_idx ON chat_messages (room_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_messages`);
    await q.query(`DROP TABLE chat_room_members`);
    await q.query(`DROP TABLE chat_rooms`);
  }
}
