/**
 * Idempotency keys on content's creates (docs/api/contract.md §7.1): a lineup imported from a
 * CSV file (the fingerprint covers the file's bytes), story categories, and a slot's assets.
 * The whole behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { randomUUID } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { content, contentDb, documents, editor, schedule, tokenWith, type Documents } from './support';

const HEADER = 'air_date,start_time,duration_seconds,title';
let writer: Awaited<ReturnType<typeof editor>>;
let docs: Documents;

beforeAll(async () => {
  docs = documents();
  writer = await editor();
});

function importCsv(csv: string, fields: Record<string, unknown>, headers: Record<string, string>) {
  // A new FormData each time: another boundary, as a client's retry would send.
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append('file', new Blob([csv]), 'lineup.csv');
  return content('/api/v1/lineup', { token: writer.token, multipart: form, headers });
}

const schedulesTitled = async (title: string) =>
  (await contentDb(`SELECT count(*)::int AS n FROM broadcast_schedules WHERE title = $1`, [title]))[0].n;

describe('Idempotency-Key on POST /content/api/v1/lineup (CSV import)', () => {
  it('imports once for a retried upload and replays the answer with its ETag', async () => {
    const fields = schedule({ title: `csv-${randomUUID()}` });
    const csv = `${HEADER}\n2026-03-01,06:00,1800,News\n2026-03-02,07:30,60,Weather\n`;
    const headers = idempotencyKey();
    const first = await importCsv(csv, fields, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('etag')).toBeTruthy();
    expectReplayOf(await importCsv(csv, fields, headers), first);
    expect(await schedulesTitled(String(fields.title))).toBe(1);
  });

  it('refuses the key with another CSV file (422), and frees it after a refused file', async () => {
    const fields = schedule({ title: `csv-${randomUUID()}` });
    const headers = idempotencyKey();
    const bad = await importCsv(`${HEADER}\n2026-03-01,6am,60,bad time\n`, fields, headers);
    expect(bad.status).toBe(422);
    const good = `${HEADER}\n2026-03-01,06:00,60,fixed\n`;
    const fixed = await importCsv(good, fields, headers);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const other = await importCsv(`${HEADER}\n2026-03-01,06:00,61,fixed\n`, fields, headers);
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
    expect(await schedulesTitled(String(fields.title))).toBe(1);
  });
});

describe('Idempotency-Key on content creates', () => {
  it('replays a story category create', async () => {
    const token = tokenWith(['story-categories:read', 'story-categories:write']);
    const headers = idempotencyKey();
    const json = { name: `Idem ${randomUUID()}` };
    const first = await content('/api/v1/story-categories', { token, json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await content('/api/v1/story-categories', { token, json, headers }), first);
  });

  it("replays a slot's asset attachment", async () => {
    const created = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({
        slots: [{ air_date: '2026-03-01', start_time: '06:00', duration_seconds: 60, title: 'A' }],
      }),
    });
    expect(created.status).toBe(201);
    const slots = await content(`/api/v1/lineup/${created.body.id}/slots`, { token: writer.token });
    const doc = await docs.create();
    const path = `/api/v1/lineup/slots/${slots.body.results[0].id}/assets`;
    const headers = idempotencyKey();
    const first = await content(path, { token: writer.token, json: { document_id: doc }, headers });
    expect(first.status).toBe(200);
    expectReplayOf(await content(path, { token: writer.token, json: { document_id: doc }, headers }), first);
  });
});
