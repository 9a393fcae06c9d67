#!/usr/bin/env node
/**
 * acl's cursor lists at a million users (docs/api/contract.md §3: keyset pagination, never OFFSET):
 * `GET /acl/api/v1/users` and endpoint 7, `GET /acl/api/v1/auth/correspondents/invite`, measured
 * over HTTP against acl booted from dist, at the first page, deep in the list (forwards with
 * `next` and back with `previous`) and at the last page, with EXPLAIN (ANALYZE, BUFFERS) of every
 * statement each request runs.
 *
 *   npx nx run-many -t build && node bench/acl-users-list.mjs
 *
 * Seed: USERS users (default 1,000,000) as bench/acl-growth.mjs seeds them (bench/lib/seed-users.mjs),
 * and a random CORRESPONDENT_SHARE of them (default 0.05) given the CORRESPONDENT role.
 *
 * How the deep pages are reached. A deep cursor is signed, so a client can only get one by walking;
 * walking a million users 20 at a time is 50,000 requests. Instead this script:
 *   1. walks the first WALK_PAGES pages (default 50) of 100 users with the `next` links acl returns,
 *      then checks that a cursor it signs itself (acl's own CursorCodec, the CURSOR_SECRET it gave
 *      acl) for the last row of that walk is byte for byte the `next` cursor acl returned: a
 *      cursor carries only the sort key of a row and its direction, so the one signed here for any
 *      row is exactly the one acl would put in `next` after that row;
 *   2. signs such a cursor for the row 1,000 rows before the end (its key read with SQL), and checks
 *      that acl answers with the rows that follow it in SQL's order;
 *   3. from that page follows acl's own `next` links to the last page (`next: null`), then acl's
 *      own `previous` links back to that page, checking every row on the way.
 * Endpoint 7 is walked in full (about 500 pages of 100) with acl's links, then measured the same
 * way. A sweep at several depths (signed cursors) shows latency against depth.
 *
 * Measured per case: a sequential loop (one keep-alive connection, SEQUENTIAL requests taken in
 * rounds interleaved across the cases so that this noisy machine's drift falls on all alike; p50/p99
 * with sub-millisecond precision, the closest to server time a client gets here), and autocannon
 * with CONNECTIONS connections for DURATION seconds (req/s; autocannon's latencies are whole ms).
 * Two baselines frame the figures: /acl/health/live (acl's floor) and /acl/api/v1/users/{id}.
 * The SQL is what acl's compiled UsersService and CorrespondentsService (with the platform's
 * Paginator, which builds the keyset WHERE, ORDER BY and LIMIT) send for the same request, captured
 * by running them in this process on the same database; their page and links are checked to equal
 * acl's HTTP answer before their statements are EXPLAINed.
 *
 * Env: BENCH_DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres),
 * NATS_URL (default nats://127.0.0.1:4222), USERS, CORRESPONDENT_SHARE, WALK_PAGES, SEQUENTIAL
 * (default 300), CONNECTIONS (default 10), DURATION (seconds, default 5), KEEP_DB=1.
 * Writes bench/results/acl-users-list.json. Compare ratios more than absolute figures: autocannon,
 * acl and PostgreSQL share this machine's cores.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  executionMs,
  explain,
  httpClient,
  percentiles,
  runAutocannon,
  sqlRecorder,
  startApp,
} from './lib/app-server.mjs';
import { freePort } from './lib/processes.mjs';
import {
  applySchema,
  assert,
  benchDatabase,
  benchPasswordHash,
  checkRollup,
  dist,
  log,
  machine,
  seconds,
  seedUsers,
  vacuumAnalyze,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { CursorCodec } = require(dist('libs/http/src/pagination/cursor.js'));
const { Paginator } = require(dist('libs/http/src/pagination/paginator.js'));
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { User } = require(dist('apps/acl/src/users/user.entity.js'));
const { UserDirectoryService } = require(dist('apps/acl/src/users/user-directory.service.js'));
const { GroupMembershipsService } = require(dist('apps/acl/src/groups/group-memberships.service.js'));
const { UsersService } = require(dist('apps/acl/src/users/users.service.js'));
const { CorrespondentsService, CORRESPONDENT_ROLE } = require(
  dist('apps/acl/src/correspondents/correspondents.service.js'),
);

const USERS = Number(process.env.USERS ?? 1_000_000);
const CORRESPONDENT_SHARE = Number(process.env.CORRESPONDENT_SHARE ?? 0.05);
const WALK_PAGES = Number(process.env.WALK_PAGES ?? 50);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 300);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 5);
/** Interleaved rounds the sequential requests of every case are spread over. */
const ROUNDS = 10;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PAGE_SIZE = 20;
/** Rows before the deep page: the page 1,000 rows before the end of the list. */
const FROM_END = 1000;
/** A list answer slower than this (sequential p50) gets its plan read in the report. */
const SLOW_MS = 20;

const database = benchDatabase('bench_acl_users_list');

const LISTS = {
  users: {
    path: '/acl/api/v1/users',
    // The order and filter of UsersService.list / CorrespondentsService.list (NEWEST_JOINED_FIRST).
    // OFFSET is the bench's own way to find the row at a position and to check acl's pages; acl never uses it.
    keyAt: `SELECT u.date_joined, u.id FROM users u
             ORDER BY u.date_joined DESC, u.id DESC OFFSET $1 LIMIT 1`,
    idsFrom: `SELECT u.id FROM users u
               ORDER BY u.date_joined DESC, u.id DESC OFFSET $1 LIMIT $2`,
  },
  correspondents: {
    path: '/acl/api/v1/auth/correspondents/invite',
    keyAt: `SELECT u.date_joined, u.id FROM users u
             WHERE EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_code = 'CORRESPONDENT')
             ORDER BY u.date_joined DESC, u.id DESC OFFSET $1 LIMIT 1`,
    idsFrom: `SELECT u.id FROM users u
               WHERE EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_code = 'CORRESPONDENT')
               ORDER BY u.date_joined DESC, u.id DESC OFFSET $1 LIMIT $2`,
  },
};

/** The figures of bench/results/acl-users-list.json: p50, p90, p99, max and mean. */
const figures = (samples) => percentiles(samples, { quantiles: [50, 90, 99], mean: true });

/** autocannon's own result, for CONNECTIONS connections over DURATION seconds. */
const autocannonRun = (url, token) =>
  runAutocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
  });

// ---------------------------------------------------------------- the SQL acl runs

/**
 * acl's compiled list services on their own DataSource whose logger keeps every statement, so a
 * request's statements can be replayed under EXPLAIN. Paginator reads method, path, originalUrl,
 * protocol and host from the request, as Express gives them to acl.
 */
async function sqlCapture(url, cursorSecret) {
  const recorder = await sqlRecorder('acl-bench-sql', url, [User]);
  const dataSource = recorder.dataSource;
  const paginator = new Paginator({ cursorSecret });
  const directory = new UserDirectoryService(dataSource, new GroupMembershipsService(dataSource));
  const services = {
    // Lists read only; the writers they would hand off to (memberships, sessions, accounts) are left out.
    users: new UsersService(dataSource, directory, paginator, null, null),
    correspondents: new CorrespondentsService(dataSource, paginator, null, directory, {}, null),
  };
  const call = (list, absoluteUrl) => {
    const target = new URL(absoluteUrl);
    const query = {};
    for (const [name, value] of target.searchParams)
      query[name] = name === 'page_size' ? Number(value) : value;
    const req = {
      method: 'GET',
      baseUrl: '',
      path: target.pathname,
      originalUrl: `${target.pathname}${target.search}`,
      protocol: target.protocol.slice(0, -1),
      host: target.host,
      headers: { host: target.host },
    };
    return services[list].list(query, req);
  };
  return {
    /** The page and the statements of one list request. */
    async run(list, absoluteUrl) {
      const { result: page, statements } = await recorder.record(() => call(list, absoluteUrl));
      return { page, statements };
    },
    /** Median and p99 of the request's service call alone (its SQL and mapping, no HTTP). */
    async time(list, absoluteUrl, runs) {
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await call(list, absoluteUrl);
        samples.push(performance.now() - start);
      }
      return figures(samples);
    },
    close: () => recorder.close(),
  };
}

function statementLabel(sql) {
  if (/FROM "users"/.test(sql) && /LIMIT 1$/.test(sql.trim()))
    return 'probe: any row beyond the page (LIMIT 1)';
  if (/FROM "users"/.test(sql)) return `the page: keyset window (LIMIT ${/LIMIT (\d+)/.exec(sql)?.[1]})`;
  if (/user_roles ur JOIN roles/.test(sql)) return "the page's roles";
  if (/group_members/.test(sql)) return "the page's groups";
  return 'other';
}

async function explainAll(db, statements) {
  const out = [];
  for (const { query, parameters } of statements) {
    const lines = await explain(db, query, parameters);
    out.push({
      statement: statementLabel(query),
      sql: query.replace(/\s+/g, ' ').trim(),
      parameters,
      execution_ms: executionMs(lines),
      planning_ms: Number(/Planning Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1]),
      explain: lines,
    });
  }
  return out;
}

// ---------------------------------------------------------------- main

/** The users, correspondents and rollups at full size; the seed's figures for the report. */
async function seedDatabase(db) {
  const seeded = await seedUsers(db, { users: USERS, passwordHash: await benchPasswordHash() });
  log(`seeded ${USERS} users in ${seeded.seedSeconds} s (rollup backfill ${seeded.backfillSeconds} s)`);
  const start = performance.now();
  await db.query(`INSERT INTO user_roles (user_id, role_code) SELECT id, $1 FROM users WHERE random() < $2`, [
    CORRESPONDENT_ROLE,
    CORRESPONDENT_SHARE,
  ]);
  const correspondentSeconds = seconds(start);
  const vacuumSeconds = await vacuumAnalyze(db, ['users', 'user_roles', 'user_join_days']);
  await checkRollup(db, USERS);
  const counts = (
    await db.query(
      `SELECT (SELECT count(*) FROM users)::int AS users,
              (SELECT count(*) FROM user_roles WHERE role_code = $1)::int AS correspondents,
              pg_size_pretty(pg_total_relation_size('users')) AS users_size,
              pg_size_pretty(pg_relation_size('users_date_joined_idx')) AS date_joined_index_size,
              pg_size_pretty(pg_total_relation_size('user_roles')) AS user_roles_size`,
      [CORRESPONDENT_ROLE],
    )
  ).rows[0];
  log(
    `${counts.correspondents} correspondents in ${correspondentSeconds} s; vacuum analyze ${vacuumSeconds} s`,
  );
  const totals = { users: counts.users, correspondents: counts.correspondents };
  return { seeded, correspondentSeconds, vacuumSeconds, counts, totals };
}

/** acl from dist on the seeded database, and an admin token it accepts. */
async function startAcl() {
  // acl from dist, with a signing key of ours so that a token minted here verifies.
  const keys = generateTestKeys();
  const cursorSecret = randomBytes(32).toString('hex');
  const port = await freePort();
  const start = performance.now();
  const acl = await startApp('acl', 'acl', {
    PORT: String(port),
    DATABASE_URL: database.url,
    NATS_URL,
    CURSOR_SECRET: cursorSecret,
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    JWT_JWKS_URL: `http://127.0.0.1:${port}/acl/.well-known/jwks.json`,
    LOG_LEVEL: 'info',
  });
  log(`acl ready on ${acl.base} in ${seconds(start)} s (log ${acl.logFile})`);
  const token = mintToken(keys, {
    email: 'bench-admin@example.com',
    name: 'Bench Admin',
    roles: ['ADMIN'],
    permissions: ['*'],
    expiresIn: 3600,
  });
  return { acl, token, cursorSecret };
}

/**
 * What the walks and cases use: URLs of a list's pages, cursors signed here, and walks that
 * follow acl's links checking every page against SQL's order.
 */
function listTools({ db, acl, http, codec, sql }) {
  const urlOf = (list, cursor, size = PAGE_SIZE) => {
    const url = new URL(`${acl.base}${LISTS[list].path}`);
    url.searchParams.set('page_size', String(size));
    if (cursor) url.searchParams.set('cursor', cursor);
    return url.toString();
  };
  const scope = (list) => `GET ${LISTS[list].path}`;
  const keyAt = async (list, rank) => {
    const row = (await db.query(LISTS[list].keyAt, [rank])).rows[0];
    return [row.date_joined.toISOString(), row.id];
  };
  /** The `next` cursor acl gives after the row at `rank` (0-based, in the list's order). */
  const cursorAfter = async (list, rank) => codec.encode(scope(list), { d: 'n', k: await keyAt(list, rank) });
  const idsFrom = async (list, rank, count) =>
    (await db.query(LISTS[list].idsFrom, [rank, count])).rows.map((r) => r.id);
  const cursorOf = (link) => new URL(link).searchParams.get('cursor');
  const sameIds = (page, ids, what) =>
    assert(
      page.results.length === ids.length && page.results.every((r, i) => r.id === ids[i]),
      `${what}: acl's page is not the rows SQL has there`,
    );

  /**
   * Follows `next` from `url` (the page starting at `rank`) until `next` is null or `maxRows`
   * rows were read, checking every page against SQL's order; returns latencies and what it saw.
   */
  const walk = async (list, url, rank, maxRows) => {
    const expected = await idsFrom(list, rank, maxRows);
    const samples = [];
    const urls = [];
    let page;
    let seen = 0;
    let pages = 0;
    for (;;) {
      urls.push(url);
      const response = await http.get(url);
      samples.push(response.ms);
      page = response.body;
      sameIds(page, expected.slice(seen, seen + page.results.length), `${list} walk page ${pages}`);
      seen += page.results.length;
      pages += 1;
      if (!page.next || seen >= maxRows) return { samples, seen, pages, page, url, urls };
      url = page.next;
    }
  };
  /** Follows `previous` from `page` back to a page starting at `stopRank`, checking each page. */
  const walkBack = async (list, page, pageRank, stopRank) => {
    const expected = await idsFrom(list, stopRank, pageRank - stopRank);
    const samples = [];
    let rank = pageRank;
    while (rank > stopRank) {
      assert(page.previous, `${list}: no previous link at rank ${rank}`);
      const response = await http.get(page.previous);
      samples.push(response.ms);
      page = response.body;
      rank -= page.results.length;
      sameIds(
        page,
        expected.slice(rank - stopRank, rank - stopRank + page.results.length),
        `${list} walk back at rank ${rank}`,
      );
    }
    return { samples, page };
  };

  /** EXPLAIN of what the middle page of a walk (pages of 100) runs. */
  const middlePageSql = async (list, urls) => {
    const url = urls[Math.floor(urls.length / 2)];
    const { statements } = await sql.run(list, url);
    return {
      page: urls.indexOf(url) + 1,
      statements: (await explainAll(db, statements)).map(({ statement, execution_ms, explain }) => ({
        statement,
        execution_ms,
        explain,
      })),
    };
  };
  return { urlOf, scope, cursorAfter, cursorOf, walk, walkBack, middlePageSql };
}

/** acl's code is cold after boot: first pages warm it, so that the walks time the data. */
async function warmUp({ http }, { urlOf }) {
  for (const list of ['users', 'correspondents']) {
    for (const size of [PAGE_SIZE, 100])
      for (let i = 0; i < 100; i++) await http.get(urlOf(list, undefined, size));
  }
}

/** Walks of both lists by acl's links: the first pages, the tail and back; the pages the cases time. */
async function walkLists({ http, totals }, tools) {
  const { urlOf, cursorAfter, cursorOf, walk, walkBack, middlePageSql } = tools;
  const walks = {};
  const pagesFor = {};

  // --- users: the first WALK_PAGES pages of 100 by acl's links; a signed cursor equals acl's.
  log(`users: walking the first ${WALK_PAGES} pages of 100 with next`);
  const head = await walk('users', urlOf('users', undefined, 100), 0, WALK_PAGES * 100);
  const signed = await cursorAfter('users', head.seen - 1);
  assert(signed === cursorOf(head.page.next), 'a cursor signed here differs from the one acl returned');
  walks.users_first_pages = {
    what: `the first ${WALK_PAGES} pages of 100 (rows 1..${head.seen}), following acl's next links`,
    signed_cursor_equals_acls: true,
    latency: figures(head.samples),
    middle_page_sql: await middlePageSql('users', head.urls),
  };

  // --- users: a page 1,000 rows before the end, then acl's next links to the end and back.
  const deepRank = totals.users - FROM_END;
  const usersDeepUrl = urlOf('users', await cursorAfter('users', deepRank - 1));
  log(`users: page at row ${deepRank + 1} of ${totals.users}, next to the end, previous back`);
  const tail = await walk('users', usersDeepUrl, deepRank, FROM_END);
  assert(tail.seen === FROM_END && tail.page.next === null, `users: walked ${tail.seen} rows to the end`);
  const usersLastUrl = tail.url;
  const back = await walkBack('users', tail.page, totals.users - tail.page.results.length, deepRank);
  walks.users_tail = {
    what: `from row ${deepRank + 1} to the last (${tail.pages} pages of ${PAGE_SIZE}) with next, then back with previous`,
    next: figures(tail.samples),
    previous: figures(back.samples),
  };
  const deepPage = (await http.get(usersDeepUrl)).body;
  assert(deepPage.previous, 'users: the deep page has no previous link');
  pagesFor.users = {
    first: urlOf('users'),
    deep_next: usersDeepUrl,
    deep_previous: deepPage.previous,
    last: usersLastUrl,
  };

  // --- correspondents: the whole list by acl's links, 100 a page; then back 1,000 rows.
  log(`correspondents: walking all ${totals.correspondents} with next (pages of 100)`);
  const all = await walk('correspondents', urlOf('correspondents', undefined, 100), 0, totals.correspondents);
  assert(all.seen === totals.correspondents, `correspondents: walked ${all.seen}`);
  walks.correspondents_all = {
    what: `every correspondent, ${all.pages} pages of 100, following acl's next links`,
    rows: all.seen,
    latency: figures(all.samples),
    middle_page_sql: await middlePageSql('correspondents', all.urls),
  };
  const corrDeepRank = Math.max(0, totals.correspondents - FROM_END);
  const corrDeepUrl = urlOf('correspondents', await cursorAfter('correspondents', corrDeepRank - 1));
  const corrTail = await walk(
    'correspondents',
    corrDeepUrl,
    corrDeepRank,
    totals.correspondents - corrDeepRank,
  );
  assert(corrTail.seen === totals.correspondents - corrDeepRank, 'correspondents: tail walk');
  const corrBack = await walkBack(
    'correspondents',
    corrTail.page,
    totals.correspondents - corrTail.page.results.length,
    corrDeepRank,
  );
  walks.correspondents_tail = {
    what: `from correspondent ${corrDeepRank + 1} to the last (${corrTail.pages} pages of ${PAGE_SIZE}) with next, then back with previous`,
    next: figures(corrTail.samples),
    previous: figures(corrBack.samples),
  };
  const corrDeepPage = (await http.get(corrDeepUrl)).body;
  pagesFor.correspondents = {
    first: urlOf('correspondents'),
    deep_next: corrDeepUrl,
    deep_previous: corrDeepPage.previous,
    last: corrTail.url,
  };

  return { walks, pagesFor };
}

/** Latency against depth (signed cursors, one request at a time). */
async function latencyByDepth({ http, totals }, { urlOf, cursorAfter }) {
  const sweep = {};
  for (const list of ['users', 'correspondents']) {
    const total = totals[list];
    const depths = [0, 1_000, 10_000, 100_000, 250_000, 500_000, 750_000, total - FROM_END, total - PAGE_SIZE]
      .filter((d, i, a) => d < total && a.indexOf(d) === i)
      .sort((a, b) => a - b);
    const points = [];
    for (const depth of depths) {
      const url = depth === 0 ? urlOf(list) : urlOf(list, await cursorAfter(list, depth - 1));
      for (let i = 0; i < 10; i++) await http.get(url);
      points.push({ depth, url, samples: [] });
    }
    // 100 requests per depth, in interleaved rounds (see the cases below).
    for (let round = 0; round < ROUNDS; round++) {
      for (const point of points) {
        for (let i = 0; i < 100 / ROUNDS; i++) point.samples.push((await http.get(point.url)).ms);
      }
    }
    sweep[list] = points.map(({ depth, samples }) => {
      const { p50_ms, p99_ms } = figures(samples);
      return { rows_before_page: depth, p50_ms, p99_ms };
    });
    log(`${list} by depth: ${sweep[list].map((s) => `${s.rows_before_page}: ${s.p50_ms} ms`).join(', ')}`);
  }

  return sweep;
}

/** The cases: sequential latency, autocannon, the service alone, the SQL and its plans. */
async function measureCases({ db, acl, http, codec, sql, token }, { scope, cursorOf }, pagesFor) {
  const positions = {
    first: 'first page (no cursor)',
    deep_next: `deep page: ${FROM_END} rows before the end, by a next cursor`,
    deep_previous: "walking back: the deep page's previous link",
    last: 'last page (next is null), reached by following next',
  };
  // What any request costs in acl, to read the lists' figures against.
  const someUser = (await db.query(LISTS.users.keyAt, [0])).rows[0].id;
  const targets = [
    { name: 'GET /acl/health/live (no token, no SQL, not logged)', url: `${acl.base}/acl/health/live` },
    {
      name: 'GET /acl/api/v1/users/{id} (token, users:admin, 3 point queries by id)',
      url: `${acl.base}/acl/api/v1/users/${someUser}`,
    },
  ];
  for (const list of ['users', 'correspondents']) {
    for (const [position, url] of Object.entries(pagesFor[list])) {
      targets.push({ name: `${list}: ${positions[position]}`, url, list, position });
    }
  }
  for (const target of targets.filter((t) => t.list)) {
    target.page = (await http.get(target.url)).body;
    target.captured = await sql.run(target.list, target.url);
    assert(
      JSON.stringify(target.captured.page) === JSON.stringify(target.page),
      `${target.name}: the services run here did not answer as acl did`,
    );
  }

  // Sequential samples are taken in interleaved rounds, so that this machine's drift and noise
  // fall on every case alike rather than on whichever ran during a noisy spell.
  log(`sequential: ${SEQUENTIAL} requests per case in ${ROUNDS} interleaved rounds`);
  for (const target of targets) {
    target.samples = [];
    for (let i = 0; i < 20; i++) await http.get(target.url);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      for (let i = 0; i < Math.ceil(SEQUENTIAL / ROUNDS); i++)
        target.samples.push((await http.get(target.url)).ms);
    }
  }
  const baselines = [];
  const cases = [];
  for (const target of targets) {
    const sequential = figures(target.samples);
    const loaded = await autocannonRun(target.url, token);
    assert(
      loaded.non2xx === 0 && loaded.errors === 0,
      `${target.name}: ${loaded.non2xx} non-2xx, ${loaded.errors} errors`,
    );
    const measured = {
      sequential: {
        what: 'one request at a time on one keep-alive connection, in rounds interleaved with the other cases',
        requests_per_second: Math.round(1000 / sequential.mean_ms),
        ...sequential,
      },
      autocannon: {
        connections: CONNECTIONS,
        duration_seconds: DURATION,
        requests_per_second: Math.round(loaded.requests.average),
        p50_ms: loaded.latency.p50,
        p99_ms: loaded.latency.p99,
        max_ms: loaded.latency.max,
        total_requests: loaded.requests.total,
      },
    };
    let line =
      `${target.name}\n  sequential p50 ${sequential.p50_ms} ms p99 ${sequential.p99_ms} ms; ` +
      `${CONNECTIONS} connections ${measured.autocannon.requests_per_second} req/s ` +
      `p50 ${measured.autocannon.p50_ms} ms p99 ${measured.autocannon.p99_ms} ms`;
    if (!target.list) {
      baselines.push({ case: target.name, ...measured });
      log(line);
      continue;
    }
    const { list, position, url, page } = target;
    const service = await sql.time(list, url, 100);
    const statements = await explainAll(db, target.captured.statements);
    line += `; service ${service.p50_ms} ms; SQL ${statements.map((x) => x.execution_ms).join(' + ')} ms`;
    log(line);
    cases.push({
      case: target.name,
      list,
      position,
      request: `GET ${new URL(url).pathname}${new URL(url).search.replace(/cursor=[^&]+/, 'cursor=…')}`,
      cursor: url.includes('cursor=') ? codec.decode(scope(list), cursorOf(url), 2) : null,
      page: {
        results: page.results.length,
        first_id: page.results[0]?.id ?? null,
        has_next: page.next !== null,
        has_previous: page.previous !== null,
      },
      ...measured,
      service_call_in_process: {
        what: "acl's list service alone, same database, 100 calls",
        ...service,
      },
      sql_execution_ms_total: Number(statements.reduce((sum, x) => sum + x.execution_ms, 0).toFixed(3)),
      slow: sequential.p50_ms > SLOW_MS,
      statements,
    });
  }
  return { baselines, cases };
}

async function main() {
  await database.create();
  log(`database ${database.name}`);
  let acl;
  try {
    await applySchema('acl', database.url);
    await withClient(database.url, async (db) => {
      const host = await machine(db);
      const { seeded, correspondentSeconds, vacuumSeconds, counts, totals } = await seedDatabase(db);
      const started = await startAcl();
      acl = started.acl;
      const { token, cursorSecret } = started;
      const http = httpClient(acl.base, token);
      const ctx = {
        db,
        acl,
        http,
        token,
        totals,
        codec: new CursorCodec(cursorSecret),
        sql: await sqlCapture(database.url, cursorSecret),
      };
      const tools = listTools(ctx);
      await warmUp(ctx, tools);
      const { walks, pagesFor } = await walkLists(ctx, tools);
      const sweep = await latencyByDepth(ctx, tools);
      const { baselines, cases } = await measureCases(ctx, tools, pagesFor);
      await http.close();
      await ctx.sql.close();

      const report = {
        benchmark: 'acl cursor lists at a million users: GET /acl/api/v1/users and endpoint 7',
        measured_at: new Date().toISOString(),
        machine: host,
        setup:
          'acl from dist (node dist/apps/acl/src/main.js, LOG_LEVEL info to a file) on its own seeded database, ' +
          'NATS on 127.0.0.1:4222, an admin token minted with the signing key given to acl; the client, acl and PostgreSQL on one machine',
        seed: {
          users: totals.users,
          correspondents: totals.correspondents,
          correspondent_share: CORRESPONDENT_SHARE,
          date_joined_spread: '2020-01-01 .. now, uniform; statuses ACTIVE/INVITED/DISABLED 3:1:1',
          correspondents_chosen:
            'each user with probability CORRESPONDENT_SHARE (random(), independent of date and status)',
          seed_seconds: seeded.seedSeconds,
          correspondents_seconds: correspondentSeconds,
          vacuum_analyze_seconds: vacuumSeconds,
          users_table_size: counts.users_size,
          date_joined_index_size: counts.date_joined_index_size,
          user_roles_size: counts.user_roles_size,
        },
        order:
          'date_joined DESC, id DESC on users_date_joined_idx (date_joined, id); page_size 20 unless said',
        deep_pages:
          "A cursor signed here with acl's CursorCodec and CURSOR_SECRET for a row's key is byte for byte the next " +
          "cursor acl returns after that row (checked after a walk of the first pages). The deep page's next cursor is " +
          `signed for the row ${FROM_END + 1} rows before the end; from there acl's own next links were followed to the ` +
          'last page and its previous links back, each page checked against the rows SQL has at that position.',
        slow_threshold_ms: SLOW_MS,
        walks_note:
          'Walks run after a warm-up of acl on first pages; each walked page is read for the first time (its rows ' +
          'may not be in shared_buffers yet), unlike the cases below, which repeat one URL.',
        walks,
        latency_by_depth: sweep,
        baselines,
        cases,
      };
      await writeResult('acl-users-list.json', report);
      const slow = cases.filter((c) => c.slow).map((c) => c.case);
      log(slow.length ? `slow (> ${SLOW_MS} ms): ${slow.join('; ')}` : `no case over ${SLOW_MS} ms`);
    });
  } finally {
    if (acl) await acl.stop();
    await database.drop();
  }
  // acl's request log is only worth keeping when the run failed.
  if (acl) rmSync(acl.logFile, { force: true });
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
