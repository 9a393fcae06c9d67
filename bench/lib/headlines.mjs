/**
 * The figures `npm run bench` puts in docs/benchmarks.md: for each benchmark, the few numbers
 * that say whether it is fast enough, read from its result file, each with its goal. A figure a
 * result does not hold (an older file, a bench that failed) is shown as "not measured".
 */

/** `{ figure, value, goal, met }` rows of one result; `value`/`goal` are display strings. */
function row(figure, value, unit, goal) {
  if (value === undefined || value === null || Number.isNaN(value)) {
    return { figure, value: 'not measured', goal: goal?.text ?? '', met: undefined };
  }
  const shown = `${typeof value === 'number' ? value.toLocaleString('en-US') : value}${unit}`;
  return { figure, value: shown, goal: goal?.text ?? '', met: goal ? goal.test(value) : undefined };
}
const atMost = (limit, unit = '') => ({
  text: `≤ ${limit.toLocaleString('en-US')}${unit}`,
  test: (v) => v <= limit,
});
const atLeast = (limit, unit = '') => ({
  text: `≥ ${limit.toLocaleString('en-US')}${unit}`,
  test: (v) => v >= limit,
});

/** A size for a figure's name, or `?` when the result does not say. */
const count = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '?');

const get = (object, path) => path.reduce((value, key) => value?.[key], object);

/** One entry per benchmark script: its result file and the figures it contributes. */
export const HEADLINES = {
  'request-path.mjs': {
    file: 'request-path.json',
    rows: (r) => [
      row(
        'acl `GET users/me` ÷ `GET /acl/health/live` req/s, one app, 16 connections',
        get(r, ['acl', 'ratio']),
        '',
        atLeast(0.6),
      ),
      row(
        'gateway (own process) ÷ direct req/s, story categories page of 20',
        get(r, ['gateway', 'ratio']),
        '',
        atLeast(0.7),
      ),
      row(
        'p50 the gateway adds, story categories page of 20, one request at a time',
        get(r, ['gateway', 'added_p50_ms']),
        ' ms',
        atMost(1, ' ms'),
      ),
      row(
        'NATS `acl.users.get-many` (100 ids), Nest client p50',
        get(r, ['nats', 'nest', 'p50_ms']),
        ' ms',
        atMost(1, ' ms'),
      ),
      row('Nest client ÷ bare NATS client, p50', get(r, ['nats', 'ratio_p50']), '', atMost(1.25)),
    ],
  },
  'acl-profile.mjs': {
    file: 'acl-profile.json',
    rows: (r) => {
      const top = r.self_time?.[0];
      return [
        row(
          'acl under `users/me` load: the largest share of CPU self time',
          top ? `${top.share} % ${top.group}` : undefined,
          '',
        ),
      ];
    },
  },
  'startup.mjs': {
    file: 'startup.json',
    rows: (r) => [
      row(
        '`npm start` to ready, existing data directory',
        get(r, ['warm', 'median_s']),
        ' s',
        atMost(3, ' s'),
      ),
      row(
        '`npm start` to ready, first start (build cached)',
        get(r, ['first', 'seconds']),
        ' s',
        atMost(10, ' s'),
      ),
      row(
        'memory of all nine apps in one process (RSS after start)',
        get(r, ['memory', 'rss_mib']),
        ' MiB',
        atMost(200, ' MiB'),
      ),
      row(
        'memory after load (RSS, all in one)',
        get(r, ['memory', 'rss_after_load_mib']),
        ' MiB',
        atMost(200, ' MiB'),
      ),
    ],
  },
  'memory.mjs': {
    file: 'memory.json',
    rows: (r) => [
      row(
        'memory of one app process idle (acl, RSS)',
        get(r, ['idle', 'rss_mib']),
        ' MiB',
        atMost(120, ' MiB'),
      ),
      row(
        `memory of one app process after ${count(get(r, ['settings', 'load_seconds']))} s of load (acl, RSS)`,
        get(r, ['after_load', 'rss_mib']),
        ' MiB',
        atMost(130, ' MiB'),
      ),
      row(
        'RSS growth over the last quarter of that load (acl)',
        get(r, ['load', 'rss_last_quarter_growth_mib']),
        ' MiB',
        atMost(5, ' MiB'),
      ),
    ],
  },
  'acl-get-many.mjs': {
    file: 'acl-get-many.json',
    rows: (r) => [
      row(
        'NATS `acl.users.get-many` (100 ids), Nest client p50, one request at a time',
        get(r, ['sequential', 'acl_nest', 'p50_ms']),
        ' ms',
        atMost(2, ' ms'),
      ),
      row(
        'the same, its statement alone from a pool in the bench, p50',
        get(r, ['sequential', 'sql', 'p50_ms']),
        ' ms',
      ),
    ],
  },
  'assignment-claims.mjs': {
    file: 'assignment-claims.json',
    rows: (r) => [
      row(
        'claims through the gateway, 50 clients on distinct tasks',
        get(r, ['summary', 'gateway', 'claims_per_second_median']),
        '/s',
        atLeast(300, '/s'),
      ),
    ],
  },
  'bulk-claim.mjs': {
    file: 'bulk-claim.json',
    rows: (r) => [
      row('100 tasks claimed with one bulk request', get(r, ['summary', 'bulk', 'ms_median']), ' ms'),
      row(
        '100 tasks claimed with 100 single claims, one after another',
        get(r, ['summary', 'single_sequential', 'ms_median']),
        ' ms',
      ),
      row(
        'acl requests of a bulk claim of 100',
        get(r, ['summary', 'bulk', 'acl_requests_median']),
        '',
        atMost(1),
      ),
    ],
  },
  'webhooks.mjs': {
    file: 'webhooks.json',
    rows: (r) => [
      row(
        `webhook deliveries/s to a local receiver, ${count(get(r, ['throughput', 'events']))} events, 2 replicas`,
        get(r, ['throughput', 'deliveries_per_s']),
        '/s',
        atLeast(300, '/s'),
      ),
      row(
        'webhook event commit → delivery p50',
        get(r, ['throughput', 'commit_to_delivery_ms', 'p50_ms']),
        ' ms',
      ),
      row(
        'webhook event commit → delivery p99',
        get(r, ['throughput', 'commit_to_delivery_ms', 'p99_ms']),
        ' ms',
      ),
      row(
        'webhook fast endpoint p95 beside a hung one ÷ alone',
        get(r, ['isolation', 'p95_ratio']),
        '',
        atMost(2),
      ),
      row(
        'webhook events delivered after a replica was killed midway (delivered twice)',
        r.kill ? `${r.kill.delivered} of ${r.kill.events} (${r.kill.delivered_twice})` : undefined,
        '',
      ),
    ],
  },
  'chat-notifications.mjs': {
    file: 'chat-notifications.json',
    rows: (r) => [
      row(
        `websocket fan-out to ${get(r, ['parameters', 'MEMBERS']) ?? '?'} sockets, p99 until the last`,
        get(r, ['fanout', 'until_last_member', 'p99_ms']),
        ' ms',
        atMost(250, ' ms'),
      ),
      row(
        'room list, first page of 20, user in 1,000 rooms, p50',
        get(r, ['room_list', 'first_page_20', 'p50_ms']),
        ' ms',
      ),
    ],
  },
  'gateway.mjs': {
    file: 'gateway.json',
    rows: (r) => [
      row(
        'gateway ÷ direct req/s, small GET, 100 connections (fake upstream)',
        get(r, ['scenarios', 'get_small_json', 'ratio_rps']),
        '',
      ),
      row(
        'gateway ÷ bare undici proxy req/s, small GET, one process each',
        get(r, ['scenarios', 'get_small_json', 'gateway_over_bare_proxy']),
        '',
        atLeast(0.85),
      ),
      row(
        `gateway ÷ nginx req/s, small GET, ${count(r.gateway_workers)} processes each`,
        get(r, ['scenarios', 'get_small_json', 'gateway_over_nginx']),
        '',
        atLeast(0.6),
      ),
      row(
        'gateway p99 ÷ nginx p99, small GET, same processes',
        get(r, ['scenarios', 'get_small_json', 'gateway_p99_over_nginx']),
        '',
        atMost(2),
      ),
    ],
  },
  'acl-growth.mjs': {
    file: 'acl-growth.json',
    rows: (r) => [
      row(
        `growth series at ${count(r.users)} users, slowest case median`,
        r.cases ? Math.max(...r.cases.map((c) => c.median_ms)) : undefined,
        ' ms',
        atMost(50, ' ms'),
      ),
    ],
  },
  'acl-users-list.mjs': {
    file: 'acl-users-list.json',
    rows: (r) => [
      row(
        `users list at ${count(get(r, ['seed', 'users']))} users, last pages p50`,
        get(r, ['walks', 'users_tail', 'next', 'p50_ms']),
        ' ms',
        atMost(50, ' ms'),
      ),
    ],
  },
  'assignment-list.mjs': {
    file: 'assignment-list.json',
    rows: (r) => [
      row(
        `tasks page 5,000 at ${count(get(r, ['seed', 'tasks']))} tasks, SQL (keyset)`,
        get(r, ['sql', 'page_5000_keyset', 'execution_ms']),
        ' ms',
        atMost(5, ' ms'),
      ),
    ],
  },
  'commercial-top-clients.mjs': {
    file: 'commercial-top-clients.json',
    rows: (r) => [
      row(
        `top clients at ${count(get(r, ['seed', 'deals']))} deals, YTD p95`,
        get(r, ['http', 'YTD-2026', 'p95_ms']),
        ' ms',
        atMost(50, ' ms'),
      ),
    ],
  },
  'content-lineup.mjs': {
    file: 'content-lineup.json',
    rows: (r) => [
      row(
        'story categories at 1,000,000 rows, page 5,000 ÷ first page p50',
        get(r, ['lists', 'story_categories', 'ratio_p50']),
        '',
        atMost(2),
      ),
      row('10,000-row CSV import p50', get(r, ['csv_import', 'p50_ms']), ' ms', atMost(2000, ' ms')),
    ],
  },
  'inventory.mjs': {
    file: 'inventory.json',
    rows: (r) => [
      row(
        `revenue summary at ${count(r.lines)} lines, a year, SQL p50`,
        r.sql?.find((c) => c.case === 'year 2025')?.p50_ms,
        ' ms',
        atMost(50, ' ms'),
      ),
      row(
        'revenue summary, a year, over HTTP p50 (sequential)',
        r.http?.find((c) => c.case === 'revenue summary, year 2025')?.sequential?.p50_ms,
        ' ms',
        atMost(50, ' ms'),
      ),
    ],
  },
  'payment-attainment.mjs': {
    file: 'payment-attainment.json',
    rows: (r) => [
      row(
        'attainment, 500 business managers, read-all p50',
        get(r, ['http', 'read-all (get-many)', 'p50_ms']),
        ' ms',
        atMost(250, ' ms'),
      ),
    ],
  },
  'documents-transfer.mjs': {
    file: 'documents-transfer.json',
    rows: (r) => {
      const largest = r.cases?.filter(
        (c) => c.kind !== 'tus' && (c.route === 'through_gateway' || c.route === 'gateway'),
      );
      const download = largest?.filter((c) => c.direction === 'download').at(-1);
      const upload = largest?.filter((c) => c.direction === 'upload').at(-1);
      return [
        row(`${download?.file_mb ?? '?'} MB download through the gateway`, download?.mb_per_second, ' MB/s'),
        row(`${upload?.file_mb ?? '?'} MB upload through the gateway`, upload?.mb_per_second, ' MB/s'),
        row(
          'documents RSS growth during a transfer (max)',
          download?.rss_mib?.documents?.growth_max,
          ' MiB',
          atMost(64, ' MiB'),
        ),
        row(
          `tus upload of ${r.tus?.file_mb ?? '?'} MB: MB/s through the gateway ÷ direct`,
          r.tus?.gateway_over_direct,
          '',
          atLeast(0.7),
        ),
        row(
          'tus upload: gateway and documents RSS growth (max)',
          r.tus ? Math.max(r.tus.rss_growth_mib.gateway, r.tus.rss_growth_mib.documents) : undefined,
          ' MiB',
          atMost(64, ' MiB'),
        ),
      ];
    },
  },
  'observability-overhead.mjs': {
    file: 'observability-overhead.json',
    rows: (r) => [
      row(
        'metrics on: overhead on users/me req/s',
        get(r, ['results', 'metrics on', 'overhead_pct']),
        ' %',
        atMost(5, ' %'),
      ),
    ],
  },
  'validation-amplification.mjs': {
    file: 'validation-amplification.json',
    rows: (r) => [
      row(
        'CPU per ~1 MB JSON body, no token, worst shape, median',
        get(r, ['worst_shape_without_token', 'cpu_p50_ms']),
        ' ms',
        atMost(50, ' ms'),
      ),
      row(
        'CPU per ~1 MB JSON body, no token, worst of all requests',
        r.shapes
          ? Math.max(
              ...Object.values(r.shapes)
                .filter((shape) => !shape.token)
                .map((shape) => shape.cpu_ms.max),
            )
          : undefined,
        ' ms',
        atMost(100, ' ms'),
      ),
      row(
        '80,000 unknown keys at the token endpoint, CPU median',
        get(r, ['shapes', 'many_keys', 'cpu_ms', 'p50']),
        ' ms',
        atMost(50, ' ms'),
      ),
      row(
        'assignment `/health/live` p95 while 3 clients flood the token endpoint ÷ idle',
        get(r, ['health_p95_ratio', 'assignment']),
        '',
        atMost(2),
      ),
      row(
        'answer to a 400,000-element field',
        get(r, ['shapes', 'numbers_in_a_scalar', 'answer_bytes']),
        ' bytes',
        atMost(65536, ' bytes'),
      ),
    ],
  },
  'acl-auth-cost.mjs': {
    file: 'acl-auth-cost.json',
    rows: (r) => [
      row(
        'acl CPU per `users/me` request',
        get(r, ['results', 'users/me direct', 'after', 'median_acl_cpu_ms_per_request']),
        ' ms',
      ),
    ],
  },
  'revocation-check.mjs': {
    file: 'revocation-check.json',
    rows: (r) => [
      row(
        'revocation check per request ÷ acl CPU of a `users/me` request',
        get(r, ['added_share_of_users_me_pct']),
        ' %',
        atMost(2, ' %'),
      ),
    ],
  },
  'audit-read.mjs': {
    file: 'audit-read.json',
    rows: (r) => [
      row(
        `audit list \`?resource_id=\` at ${count(r.entries)} entries, p95`,
        get(r, ['list_by_resource_id', 'p95_ms']),
        ' ms',
        atMost(20, ' ms'),
      ),
      row(
        `audit list, a page 5,000 pages deep (cursor) at ${count(r.entries)} entries, p95`,
        get(r, ['deep_page', 'p95_ms']),
        ' ms',
        atMost(50, ' ms'),
      ),
      row(
        `audit verify of ${count(r.entries)} entries (the whole chain)`,
        get(r, ['verify', 'seconds']),
        ' s',
      ),
      row('audit verify: largest RSS growth during the walk', get(r, ['verify', 'rss_growth_mb']), ' MiB'),
    ],
  },
  'soak.mjs': {
    file: 'soak.json',
    rows: (r) => {
      const minutes = (key) => count(get(r, ['settings', key]) / 60 || undefined);
      const summary = (key) => get(r, ['summary', key]);
      const integrity = (...path) => get(r, ['integrity', ...path]);
      const slope = `over the last ${minutes('slope_s')} min of ${minutes('duration_s')} (npm start, mixed load)`;
      // [figure, value, unit, goal]
      return [
        ['soak: RSS slope ' + slope, summary('rss_slope_mib_per_h'), ' MiB/h', atMost(5, ' MiB/h')],
        ['soak: heap floor slope ' + slope, summary('heap_slope_mib_per_h'), ' MiB/h', atMost(5, ' MiB/h')],
        ['soak: p99 at the end ÷ p99 after the warm-up', summary('p99_end_vs_warmup'), '', atMost(1.1)],
        ['soak: largest RSS, all nine in one process', summary('rss_max_mib'), ' MiB', atMost(200, ' MiB')],
        [`soak: errors of ${count(summary('requests'))} requests`, summary('errors'), '', atMost(0)],
        [
          `soak: websocket messages lost of ${count(integrity('websocket_deliveries', 'expected'))} deliveries`,
          integrity('websocket_deliveries', 'missing'),
          '',
          atMost(0),
        ],
        [
          `soak: duplicates among ${count(integrity('idempotent_retries'))} idempotent retries`,
          integrity('idempotent_retry_duplicates'),
          '',
          atMost(0),
        ],
        [
          `soak: of ${count(integrity('claim_races'))} three-way claim races, those without exactly one winner`,
          integrity('claim_races_without_one_winner'),
          '',
          atMost(0),
        ],
        [
          `soak: of ${count(integrity('documents_deleted'))} deleted documents, those still served`,
          integrity('documents_still_there_after_delete'),
          '',
          atMost(0),
        ],
        [
          `soak: of ${count(integrity('documents_deleted'))} deleted documents, those still attached to a slot`,
          integrity('documents_still_attached_after_delete'),
          '',
          atMost(0),
        ],
        [
          `soak: errors of ${count(get(r, ['burst', 'requests']))} requests at ${count(get(r, ['settings', 'burst_factor']))}x for ${minutes('burst_s')} min after`,
          get(r, ['burst', 'errors']),
          '',
          atMost(0),
        ],
        [
          `soak: p99 at ${count(get(r, ['settings', 'burst_factor']))}x ÷ p99 after the warm-up`,
          (() => {
            const burst = get(r, ['burst', 'latency', 'overall', 'p99_ms']);
            const after = summary('p99_after_warmup_ms');
            return burst && after ? Number((burst / after).toFixed(2)) : undefined;
          })(),
          '',
        ],
      ].map((args) => row(...args));
    },
  },
  'ci-run.mjs': {
    file: 'ci-run.json',
    rows: (r) => [
      row(
        '`.ci/run` from a clean clone, wall time' + (r.exit_code === 0 ? '' : ' (the run failed)'),
        r.total_minutes,
        ' min',
        atMost(12, ' min'),
      ),
    ],
  },
  'audit-write.mjs': {
    file: 'audit-write.json',
    rows: (r) => [
      row(
        'claims/s with the audit trail on ÷ off (medians, same run, straight to assignment)',
        get(r, ['summary', 'on_over_off']),
        '',
        atLeast(0.9),
      ),
      row(
        "the claim's UPDATE with the audit trigger on − off, µs (medians)",
        (() => {
          const on = get(r, ['summary', 'statement', 'on_us_median']);
          const off = get(r, ['summary', 'statement', 'off_us_median']);
          return on === undefined || off === undefined ? undefined : on - off;
        })(),
        ' µs',
      ),
    ],
  },
  'audit-verify.mjs': {
    file: 'audit-verify.json',
    rows: (r) => [
      row(
        `\`npm run audit:verify\` of ${count(get(r, ['large', 'entries']))} entries, peak RSS`,
        get(r, ['large', 'peak_rss_mib']),
        ' MiB',
        atMost(150, ' MiB'),
      ),
      row(
        `\`npm run audit:verify\` peak RSS at ${count(get(r, ['large', 'entries']))} ÷ at ${count(get(r, ['small', 'entries']))} entries`,
        get(r, ['peak_rss_ratio_large_to_small']),
        '',
        atMost(1.5),
      ),
      row(
        '`npm run audit:verify` entries verified per second',
        get(r, ['large', 'lines_per_second']),
        '',
        atLeast(10_000),
      ),
    ],
  },
  'queue-scans.mjs': {
    file: 'queue-scans.json',
    rows: (r) => {
      const last = (queue, plan) => get(r, ['queues', queue, plan, 'ms_per_pass'])?.at(-1);
      const versions = `${count(r.dead_versions)} old versions in its index`;
      const rows = count(r.dead_versions);
      return [
        [
          'sealer',
          `audit sealer's pass, ${versions}`,
          ['index', 'index scan in order'],
          ['bitmap', 'bitmap scan'],
          2,
        ],
        [
          'relay',
          `outbox relay's claim, ${versions}`,
          ['index', 'index scan in order'],
          ['bitmap', 'bitmap scan'],
          5,
        ],
        [
          'pushes',
          `push claim beside ${rows} emails pending`,
          ['now', 'its own index'],
          ['before', "pushes' and emails' index"],
          10,
        ],
        [
          'webhooks',
          `webhook worker's claim, ${rows} delivered messages`,
          ['now', 'pinned, JIT off'],
          ['before', 'JIT on'],
          15,
        ],
      ].flatMap(([queue, name, [now, nowRead], [before, beforeRead], goal]) => [
        row(`${name}, ${nowRead} (as it runs)`, last(queue, now), ' ms', atMost(goal, ' ms')),
        row(`${name}, ${beforeRead} (before)`, last(queue, before), ' ms'),
      ]);
    },
  },
};

/** The Markdown table of every benchmark's figures, from the result files `read` returns. */
export function headlineTable(read) {
  const lines = [
    '| benchmark | figure | measured | goal | met | date |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [script, { file, rows }] of Object.entries(HEADLINES)) {
    const result = read(file);
    const date = result ? String(result.measured_at ?? result.date ?? result.when ?? '').slice(0, 10) : '';
    const figures = rows(result ?? {});
    for (const figure of figures) {
      const met = figure.met === undefined ? '' : figure.met ? 'yes' : 'no';
      const quick = result?.bench_quick ? ' (quick)' : '';
      lines.push(
        `| \`${script}\` | ${figure.figure} | ${figure.value}${quick} | ${figure.goal} | ${met} | ${date} |`,
      );
    }
  }
  return lines.join('\n');
}
