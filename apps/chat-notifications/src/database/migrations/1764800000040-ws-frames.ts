import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Websocket frames kept for resuming (docs/api/chat-notifications.md, "Reliable delivery"):
 * `ws_user_seqs` holds each user's last `seq`, incremented in the transaction that produces a
 * frame; `ws_payloads` holds a frame's event and data once however many users get it (a message
 * in a room of 1,000 is one payload and 1,000 frames); `ws_frames` numbers it per user. Payloads
 * older than WS_RESUME_WINDOW are pruned with their frames: both carry the time of the
 * transaction that wrote them (`now()`, the same for both). No foreign key from frames to
 * payloads: its check would run once per frame (1,000 lookups and key-share locks of the same
 * payload row for one message), and frames are only ever written and deleted with their payload.
 */
export class WsFrames1764800000040 implements MigrationInterface {
  name = 'WsFrames1764800000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ws_user_seqs (
        user_id uuid PRIMARY KEY,
        last_seq bigint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE ws_payloads (
        id uuid PRIMARY KEY,
        event text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ws_payloads_created_idx ON ws_payloads (created_at)`);
    // Frames are pruned by age: rows arrive in time order, so a BRIN index finds the old ones
    // at almost no cost per insert (a B-tree would be one more index entry per frame).
    await q.query(`
      CREATE TABLE ws_frames (
        user_id uuid NOT NULL,
        seq bigint NOT NULL,
        payload_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, seq)
      )`);
    await q.query(`CREATE INDEX ws_frames_created_idx ON ws_frames USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ws_frames`);
    await q.query(`DROP TABLE ws_payloads`);
    await q.query(`DROP TABLE ws_user_seqs`);
  }
}
