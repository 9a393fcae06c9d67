/**
 * Inbox retention (docs/operations/capacity.md), on an in-process replica with a controlled
 * clock (./in-process.ts): what is deleted by age and state, and what is never deleted.
 */
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { databaseUrl, queryDatabase } from '@media/testing';
import { Harness } from './in-process';
import { RetentionService } from '../src/notifications/retention.service';

const h = new Harness();
const DAY = 86_400_000;
let app: INestApplication;

beforeAll(async () => {
  await h.start();
  app = await h.boot();
});

afterAll(async () => {
  await h.stop();
});

/** An inbox entry of `user` titled `title`, made `ageDays` old with the given state. */
async function entry(
  user: string,
  title: string,
  ageDays: number,
  state: { read?: boolean; archived?: boolean; email?: string } = {},
): Promise<void> {
  await h.notify({ recipient_ids: [user], notification_type: 'custom', title });
  await queryDatabase(
    databaseUrl(h.database),
    `UPDATE notifications SET created_at = $3,
            read_at = CASE WHEN $4 THEN $3::timestamptz END,
            archived_at = CASE WHEN $5 THEN $3::timestamptz END,
            email_status = COALESCE($6, email_status)
      WHERE recipient_id = $1 AND title = $2`,
    [
      user,
      title,
      new Date(h.now.getTime() - ageDays * DAY),
      !!state.read,
      !!state.archived,
      state.email ?? null,
    ],
  );
}

it('deletes read or archived entries after 30 days and any entry after 90, never one whose email is still to go out', async () => {
  const user = randomUUID();
  await entry(user, 'read, 31 days', 31, { read: true, email: 'sent' });
  await entry(user, 'archived, 40 days', 40, { archived: true, email: 'sent' });
  await entry(user, 'unread, 31 days', 31, { email: 'sent' });
  await entry(user, 'unread, 91 days', 91, { email: 'skipped' });
  await entry(user, 'read, 1 day', 1, { read: true, email: 'sent' });
  await entry(user, 'read, 31 days, email held', 31, { read: true, email: 'held' });
  await entry(user, 'unread, 100 days, in a digest', 100, { email: 'digest' });

  expect(await app.get(RetentionService).runOnce()).toBe(3);
  expect((await h.rows(user)).map((r) => r.title).sort()).toEqual([
    'read, 1 day',
    'read, 31 days, email held',
    'unread, 100 days, in a digest',
    'unread, 31 days',
  ]);
  expect(await app.get(RetentionService).runOnce()).toBe(0);
});
