/**
 * Refresh-token retention (docs/operations/capacity.md) on acl booted in-process on a fresh
 * database: the rows of ended sessions go, a live session keeps its retired tokens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '@media/platform';
import {
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  queryDatabase,
  testEnv,
} from '@media/testing';
import { aclApp } from '../src/app.definition';
import { SessionRetentionService } from '../src/sessions/session-retention.service';

const database = `e2e_${Date.now()}_${randomBytes(3).toString('hex')}_acl_int`;
const db = databaseUrl(database);
const NOW = new Date('2026-06-10T12:00:00Z');
const DAY = 86_400_000;
const daysFromNow = (days: number) => new Date(NOW.getTime() + days * DAY);
let app: INestApplication;
let userId: string;

beforeAll(async () => {
  await createDatabases([database]);
  app = await createApp(
    aclApp,
    {
      PORT: String(await freePort()),
      DATABASE_URL: db,
      NATS_URL: testEnv.natsUrl,
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      EVENTS_CONSUMER_PREFIX: database.replace(/_/g, '-'),
    },
    { host: '127.0.0.1' },
  );
  [{ id: userId }] = await queryDatabase<{ id: string }>(
    db,
    `INSERT INTO users (email, password_hash) VALUES ('r@example.com', 'x') RETURNING id`,
  );
});

afterAll(async () => {
  await app?.close();
  await dropDatabases([database]);
});

/** A family of tokens, one per expiry given (days from NOW); the last one is the live one. */
async function family(expiries: number[], revoked = false): Promise<string> {
  const familyId = randomUUID();
  for (const [i, days] of expiries.entries()) {
    await queryDatabase(
      db,
      `INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at, session_started_at, retired_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        familyId,
        userId,
        randomBytes(32).toString('hex'),
        daysFromNow(days),
        daysFromNow(-20),
        i < expiries.length - 1 ? daysFromNow(days - 7) : null,
        revoked ? daysFromNow(-1) : null,
      ],
    );
  }
  return familyId;
}

it('deletes every row of a family whose tokens all expired or that was revoked, and keeps a live family whole', async () => {
  const expired = await family([-9, -8, -1]);
  const live = await family([-9, -8, 3]);
  const revoked = await family([-2, 5], true);
  const counts = async () =>
    Object.fromEntries(
      (
        await queryDatabase<{ family_id: string; n: number }>(
          db,
          `SELECT family_id, count(*)::int AS n FROM refresh_tokens GROUP BY family_id`,
        )
      ).map((r) => [r.family_id, r.n]),
    );
  expect(await counts()).toEqual({ [expired]: 3, [live]: 3, [revoked]: 2 });

  expect(await app.get(SessionRetentionService).prune(NOW)).toBe(5);
  expect(await counts()).toEqual({ [live]: 3 });
  expect(await app.get(SessionRetentionService).prune(daysFromNow(3))).toBe(3);
  expect(await counts()).toEqual({});
});
