import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PushEnvelope, PushEventName } from '@media/contracts';
import { InjectConfig } from '@media/kernel';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';

/** One push to produce: the same event and data for each of `userIds`. */
export interface NewPush<T = unknown> {
  userIds: string[];
  event: PushEventName;
  data: T;
}

/** A frame as kept, for one user. */
export interface KeptFrame {
  seq: number;
  event: PushEventName;
  data: unknown;
}

/** Where a socket starts: after `seq`; `resync` when the frames it asked for are not kept. */
export interface ResumePoint {
  seq: number;
  resync: boolean;
}

/** Frames read per query when a socket catches up. */
export const REPLAY_PAGE = 500;

/**
 * Numbers each user's frames in the producing transaction and numbers them in the order each user's
 * transactions commit: the user's `ws_user_seqs` row is incremented (and so locked until commit),
 * users in ascending id order so two transactions never wait on each other in a cycle.
 */
const RECORD_FRAMES_SQL = `
  WITH input AS (
    SELECT u, p, ord FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS x (u, p, ord)),
  counts AS (SELECT u, count(*)::bigint AS n FROM input GROUP BY u),
  bumped AS (
    INSERT INTO ws_user_seqs AS s (user_id, last_seq)
    SELECT u, n FROM counts ORDER BY u
    ON CONFLICT (user_id) DO UPDATE SET last_seq = s.last_seq + EXCLUDED.last_seq
    RETURNING user_id, last_seq)
  INSERT INTO ws_frames (user_id, seq, payload_id)
  SELECT i.u, b.last_seq - c.n + row_number() OVER (PARTITION BY i.u ORDER BY i.ord), i.p
    FROM input i JOIN counts c USING (u) JOIN bumped b ON b.user_id = i.u
  RETURNING user_id, seq, payload_id`;

/**
 * The frames pushed to users over websockets, kept in the database for WS_RESUME_WINDOW so that
 * any replica can replay them: written in the transaction of the change they announce (so a
 * frame exists exactly when its change does, and a user's `seq` follows the order of commits),
 * read back by `seq` when a client resumes or a replica has missed a push.
 */
@Injectable()
export class FramesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {}

  /**
   * Records `pushes` in the caller's transaction (two statements however many users); answers
   * one envelope per push with each user's seq, to publish once the transaction committed.
   */
  async record(manager: EntityManager, pushes: NewPush[]): Promise<PushEnvelope[]> {
    const kept = pushes
      .map((push) => ({ ...push, userIds: [...new Set(push.userIds.map((id) => id.toLowerCase()))] }))
      .filter((push) => push.userIds.length > 0);
    if (kept.length === 0) return [];
    const ids = kept.map(() => randomUUID());
    await manager.query(
      `INSERT INTO ws_payloads (id, event, data)
       SELECT id, event, data::jsonb FROM unnest($1::uuid[], $2::text[], $3::text[]) AS x (id, event, data)`,
      [ids, kept.map((p) => p.event), kept.map((p) => JSON.stringify(p.data))],
    );
    const users: string[] = [];
    const payloads: string[] = [];
    kept.forEach((push, index) => {
      for (const user of push.userIds) {
        users.push(user);
        payloads.push(ids[index]);
      }
    });
    const rows: { user_id: string; seq: string; payload_id: string }[] = await manager.query(
      RECORD_FRAMES_SQL,
      [users, payloads],
    );
    const seqs = new Map(rows.map((r) => [`${r.payload_id}/${r.user_id}`, Number(r.seq)]));
    return kept.map((push, index) => ({
      event: push.event,
      data: push.data,
      user_ids: push.userIds,
      seqs: push.userIds.map((user) => seqs.get(`${ids[index]}/${user}`) ?? 0),
    }));
  }

  /**
   * Where a socket of `userId` starts. Without `resume`: after the user's last frame. With it:
   * after `resume` when every frame since is kept (the next one within the window, or none
   * missed); a `resume` above the last seq, before the frames kept, or not a seq at all, is a
   * resync at the last.
   */
  async resumePoint(userId: string, resume: number | null): Promise<ResumePoint> {
    const valid = resume !== null && Number.isSafeInteger(resume) && resume >= 0;
    const [row]: { last: string; kept: boolean }[] = await this.dataSource.query(
      `SELECT COALESCE((SELECT last_seq FROM ws_user_seqs WHERE user_id = $1), 0) AS last,
              EXISTS (SELECT 1 FROM ws_frames f JOIN ws_payloads p ON p.id = f.payload_id
                       WHERE f.user_id = $1 AND f.seq = $2::bigint + 1
                         AND p.created_at > clock_timestamp() - $3 * interval '1 millisecond') AS kept`,
      [userId, valid ? resume : 0, this.config.realtime.resumeWindow],
    );
    const last = Number(row.last);
    if (resume === null || resume === last) return { seq: last, resync: false };
    if (!valid) return { seq: last, resync: true };
    if (resume > last || !row.kept) return { seq: last, resync: true };
    return { seq: resume, resync: false };
  }

  /** The user's frames after `seq`, in order, at most REPLAY_PAGE. */
  async after(userId: string, seq: number): Promise<KeptFrame[]> {
    const rows: { seq: string; event: PushEventName; data: unknown }[] = await this.dataSource.query(
      `SELECT f.seq, p.event, p.data FROM ws_frames f JOIN ws_payloads p ON p.id = f.payload_id
        WHERE f.user_id = $1 AND f.seq > $2 ORDER BY f.seq LIMIT $3`,
      [userId, seq, REPLAY_PAGE],
    );
    return rows.map((r) => ({ seq: Number(r.seq), event: r.event, data: r.data }));
  }

  /** The last seq of each of `userIds` that has one. */
  async lastSeqs(userIds: string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows: { user_id: string; last_seq: string }[] = await this.dataSource.query(
      `SELECT user_id, last_seq FROM ws_user_seqs WHERE user_id = ANY($1::uuid[])`,
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id, Number(r.last_seq)]));
  }

  /**
   * Deletes payloads older than the window, up to `batch` of them, and the frames of the same
   * age (written by the same transactions: the same `created_at`); answers the payloads deleted.
   * Safe on several replicas at once: they take different payloads (SKIP LOCKED), and a frame
   * deleted by two is deleted once.
   */
  async prune(batch: number): Promise<number> {
    const [row]: { deleted: number }[] = await this.dataSource.query(
      `WITH old AS (
         DELETE FROM ws_payloads WHERE id IN (
           SELECT id FROM ws_payloads
            WHERE created_at < clock_timestamp() - $1 * interval '1 millisecond'
            ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING created_at),
       frames AS (
         DELETE FROM ws_frames WHERE created_at <= (SELECT max(created_at) FROM old))
       SELECT count(*)::int AS deleted FROM old`,
      [this.config.realtime.resumeWindow, batch],
    );
    return row.deleted;
  }
}
