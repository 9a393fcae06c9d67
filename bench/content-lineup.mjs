#!/usr/bin/env node
/**
 * content at scale, over HTTP against content booted from dist on its own database:
 *   - story categories (endpoint 6) with ROWS categories, and the slot list of one schedule with
 *     ROWS slots: the first page against page 5,000 (page_size 20, i.e. 99,980 rows in), whose
 *     ratio must stay at most 1.5 (keyset pagination, never OFFSET);
 *   - a CSV import of CSV_ROWS slots (`POST /content/api/v1/lineup`, multipart `file`).
 *
 *   npx nx run-many -t build && node bench/content-lineup.mjs
 *
 * Page 5,000 is reached with a cursor this script signs itself (the platform's CursorCodec with the
 * CURSOR_SECRET it gave content) for the last row of page 4,999 (read with SQL; OFFSET is the bench's
 * own way to find it, content never uses it). A cursor carries only that row's sort key and a
 * direction, so it is byte for byte the `next` link content would give after walking there; the
 * script checks that the page's first row is the one SQL puts at position 99,980.
 * acl is stood in for by a responder of `acl.users.get-many` on NATS (the CSV import asks it for the
 * uploader); tokens are checked against a JWKS served here.
 *
 * Env: BENCH_DATABASE_URL (admin, default postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
 * (default nats://127.0.0.1:4222), ROWS (default 1,000,000), CSV_ROWS (10,000), SEQUENTIAL (200
 * requests per list case), IMPORTS (10), KEEP_DB=1. Writes bench/results/content-lineup.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { connect } from '@nats-io/transport-node';
import { httpClient, percentiles, serveJwks, startApp } from './lib/app-server.mjs';
import { freePort } from './lib/processes.mjs';
import {
  assert,
  benchDatabase,
  dist,
  log,
  machine,
  seconds,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { CursorCodec } = require(dist('libs/http/src/pagination/cursor.js'));
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const CSV_ROWS = Number(process.env.CSV_ROWS ?? 10_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);
const IMPORTS = Number(process.env.IMPORTS ?? 10);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PAGE_SIZE = 20;
const DEEP_PAGE = 5000;
const ROUNDS = 10;

const database = benchDatabase('bench_content_lineup');

/** p50, p90 and p99 of a case, the shape of bench/results/content-lineup.json. */
const figures = (samples) => percentiles(samples, { quantiles: [50, 90, 99], max: false });

async function seed(db, uploader) {
  let start = performance.now();
  await db.query(`ALTER TABLE story_categories SET UNLOGGED`);
  await db.query(
    `INSERT INTO story_categories (name, description, created_at, updated_at)
     SELECT 'cat ' || md5(i::text) || ' ' || i, NULL, now(), now() FROM generate_series(1, $1) AS i`,
    [ROWS],
  );
  await db.query(`ALTER TABLE story_categories SET LOGGED`);
  log(`seeded ${ROWS} story categories in ${seconds(start)} s`);
  start = performance.now();
  const { rows } = await db.query(
    `INSERT INTO broadcast_schedules (medium, channel, month, year, title, effective_from, effective_to, uploaded_by)
     VALUES ('TV', 'Bench', 1, 2026, 'A million slots', '2000-01-01', '2099-12-31', $1) RETURNING id`,
    [uploader],
  );
  const scheduleId = rows[0].id;
  await db.query(
    `INSERT INTO slots (schedule_id, air_date, start_time, duration_seconds, title)
     SELECT $1, date '2000-01-01' + (i % 36500), make_time((i * 7) % 24, (i * 13) % 60, 0), 30, 'Slot ' || i
       FROM generate_series(1, $2) AS i`,
    [scheduleId, ROWS],
  );
  log(`seeded ${ROWS} slots in ${seconds(start)} s`);
  await db.query(`VACUUM ANALYZE story_categories`);
  await db.query(`VACUUM ANALYZE slots`);
  return scheduleId;
}

async function main() {
  const keys = generateTestKeys();
  const jwks = await serveJwks(keys);

  const uploader = randomUUID();
  const nc = await connect({ servers: NATS_URL });
  nc.subscribe('acl.users.get-many', {
    queue: 'acl',
    callback: (_e, msg) => {
      const packet = msg.json();
      const profiles = packet.data.data.ids.map((id) => ({
        id,
        name: 'Bench Uploader',
        email: 'bench@example.com',
        first_name: 'Bench',
        last_name: 'Uploader',
        employee_number: 'B-1',
        manager_id: null,
        status: 'ACTIVE',
        roles: [],
        permissions: [],
        groups: [],
      }));
      msg.respond(JSON.stringify({ id: packet.id, response: profiles, isDisposed: true }));
    },
  });

  await database.create();
  let content;
  try {
    const cursorSecret = randomBytes(32).toString('hex');
    const port = await freePort();
    content = await startApp(
      'content',
      'content',
      {
        PORT: String(port),
        CONTENT_PORT: String(port),
        DATABASE_URL: database.url,
        NATS_URL,
        CURSOR_SECRET: cursorSecret,
        JWT_JWKS_URL: jwks.url,
        LOG_LEVEL: 'warn',
      },
      { readyTimeoutMs: 120_000 },
    );
    const report = await withClient(database.url, async (db) => {
      const scheduleId = await seed(db, uploader);
      const token = mintToken(keys, {
        sub: uploader,
        permissions: ['lineup:read', 'lineup:write', 'story-categories:read'],
      });
      const codec = new CursorCodec(cursorSecret);
      const http = httpClient(content.base, token);
      const get = (path) => http.get(path);
      const skipped = (DEEP_PAGE - 1) * PAGE_SIZE;
      const lists = {
        story_categories: {
          path: '/content/api/v1/story-categories',
          keyAt: `SELECT name, id FROM story_categories ORDER BY name COLLATE "C", id OFFSET $1 LIMIT 1`,
          key: (r) => [r.name, r.id],
        },
        slots: {
          path: `/content/api/v1/lineup/${scheduleId}/slots`,
          keyAt: `SELECT air_date::text AS air_date, start_time::text AS start_time, id FROM slots
                   WHERE schedule_id = '${scheduleId}' ORDER BY air_date, start_time, id OFFSET $1 LIMIT 1`,
          key: (r) => [r.air_date, r.start_time, r.id],
        },
      };
      const cases = {};
      for (const [name, list] of Object.entries(lists)) {
        const before = (await db.query(list.keyAt, [skipped - 1])).rows[0];
        const expected = (await db.query(list.keyAt, [skipped])).rows[0];
        const cursor = codec.encode(`GET ${list.path}`, { d: 'n', k: list.key(before) });
        const first = `${list.path}?page_size=${PAGE_SIZE}`;
        const deep = `${list.path}?page_size=${PAGE_SIZE}&cursor=${cursor}`;
        const page = await get(deep);
        assert(page.body.results[0].id === expected.id, `${name}: page ${DEEP_PAGE} starts at the wrong row`);
        assert(page.body.previous && page.body.next, `${name}: page ${DEEP_PAGE} lacks links`);
        cases[name] = { first: { url: first, samples: [] }, deep: { url: deep, samples: [] } };
      }
      // Warm up, then interleave the cases in rounds so drift on this shared machine falls on all alike.
      for (const c of Object.values(cases))
        for (const v of Object.values(c)) for (let i = 0; i < 20; i++) await get(v.url);
      for (let round = 0; round < ROUNDS; round++)
        for (const c of Object.values(cases))
          for (const v of Object.values(c))
            for (let i = 0; i < SEQUENTIAL / ROUNDS; i++) v.samples.push((await get(v.url)).ms);
      const listFigures = {};
      for (const [name, c] of Object.entries(cases)) {
        const first = figures(c.first.samples);
        const deep = figures(c.deep.samples);
        listFigures[name] = {
          rows: ROWS,
          first_page: first,
          [`page_${DEEP_PAGE}`]: deep,
          ratio_p50: Number((deep.p50_ms / first.p50_ms).toFixed(2)),
        };
        log(`${name}: first p50 ${first.p50_ms} ms, page ${DEEP_PAGE} p50 ${deep.p50_ms} ms`);
      }
      await http.close();

      // CSV import: one multipart request per import, CSV_ROWS slots each.
      const lines = ['air_date,start_time,duration_seconds,title'];
      for (let i = 0; i < CSV_ROWS; i++)
        lines.push(
          `2026-03-${String((i % 31) + 1).padStart(2, '0')},${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},30,"Slot ${i}, imported"`,
        );
      const csv = lines.join('\r\n');
      const imports = [];
      for (let i = 0; i < IMPORTS; i++) {
        const form = new FormData();
        for (const [k, v] of Object.entries({
          medium: 'RADIO',
          channel: 'Import',
          month: '3',
          year: '2026',
          title: `Import ${i}`,
          effective_from: '2026-03-01',
          effective_to: '2026-03-31',
        }))
          form.append(k, v);
        form.append('file', new Blob([csv]), 'lineup.csv');
        const started = performance.now();
        const res = await fetch(`${content.base}/content/api/v1/lineup`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        const body = await res.json();
        imports.push(performance.now() - started);
        assert(res.status === 201, `import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        const total = Object.values(body.slot_count).reduce((n, v) => n + v.count, 0);
        assert(total === CSV_ROWS, `import stored ${total} slots`);
      }
      const csvFigures = { rows: CSV_ROWS, bytes: Buffer.byteLength(csv), ...figures(imports) };
      log(`CSV import of ${CSV_ROWS} rows: p50 ${csvFigures.p50_ms} ms`);
      return {
        when: new Date().toISOString(),
        machine: await machine(db),
        load_average_at_end: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(1))),
        lists: listFigures,
        csv_import: csvFigures,
      };
    });
    await writeResult('content-lineup.json', report);
  } finally {
    await content?.stop();
    await nc.close();
    await jwks.stop();
    await database.drop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
