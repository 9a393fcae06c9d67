#!/usr/bin/env node
/**
 * Where an authenticated request's CPU goes: acl runs under `node --cpu-prof` while autocannon
 * sends `GET /acl/api/v1/users/me` (CONNECTIONS connections, DURATION seconds) straight to it,
 * then `GET /acl/health/live` as long; the profile's self time in each window is grouped by
 * package (bench/lib/cpu-profile.mjs) and divided by the requests served: µs per request of each
 * group for both, and what `users/me` pays beyond the probe (`users/me` ÷ `health/live`
 * is request-path.mjs's figure). The gateway and content of the stack are started too but not
 * loaded.
 *
 *   npx nx run-many -t build && node bench/acl-profile.mjs
 *
 * Env: NATS_URL, CONNECTIONS (16), DURATION (15). Writes bench/results/acl-profile.json.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAutocannon } from './lib/app-server.mjs';
import { startAppStack } from './lib/assignment-stack.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { assert, log, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const DURATION = Number(process.env.DURATION ?? 15);

async function main() {
  const profiles = mkdtempSync(join(tmpdir(), 'bench-acl-profile-'));
  const stack = await startAppStack({
    prefix: 'bench_profile',
    natsUrl: NATS_URL,
    app: 'content',
    nodeArgs: { acl: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] },
  });
  const windows = {};
  try {
    const login = await fetch(`${stack.urls.acl}/acl/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stack.admin),
    });
    const { access_token: token } = await login.json();
    assert(login.status === 200, `login: ${login.status}`);
    // As request-path.mjs asks them: the probe without a token.
    for (const [name, path, headers] of [
      ['users_me', '/acl/api/v1/users/me', { authorization: `Bearer ${token}` }],
      ['health_live', '/acl/health/live', {}],
    ]) {
      log(`${path} for ${DURATION} s`);
      const from = monotonicMicros();
      const result = await runAutocannon({
        url: `${stack.urls.acl}${path}`,
        headers,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      assert(result.non2xx === 0, `${path}: ${result.non2xx} non-2xx`);
      windows[name] = { from, to: monotonicMicros(), result };
    }
  } finally {
    await stack.stop();
  }
  const file = readdirSync(profiles).find((name) => name.includes(`.${stack.pids.acl}.`));
  assert(file, `no profile of acl (pid ${stack.pids.acl}) in ${profiles}`);
  const profiled = {};
  for (const [name, { from, to, result }] of Object.entries(windows))
    profiled[name] = {
      ...selfTime(join(profiles, file), { from, to }),
      requests: result.requests.total,
      result,
    };
  rmSync(profiles, { recursive: true, force: true });

  const { users_me: me, health_live: live } = profiled;
  const perRequest = (run, group) =>
    ((run.groups.find((g) => g.group === group)?.us ?? 0) / run.requests).toFixed(1);
  const groupNames = [...new Set([...me.groups, ...live.groups].map((g) => g.group))];
  const per_request_us = groupNames
    .map((group) => {
      const users_me = Number(perRequest(me, group));
      const health_live = Number(perRequest(live, group));
      return { group, users_me, health_live, beyond_the_probe: Number((users_me - health_live).toFixed(1)) };
    })
    .sort((a, b) => b.beyond_the_probe - a.beyond_the_probe);
  const busy = (run) => Number((run.groups.reduce((sum, g) => sum + g.us, 0) / run.requests).toFixed(1));
  await writeResult('acl-profile.json', {
    benchmark:
      'self time of acl serving GET /acl/api/v1/users/me, then GET /acl/health/live, grouped by package',
    measured_at: new Date().toISOString(),
    load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
    requests: me.requests,
    req_per_s: me.result.requests.average,
    health_live: { requests: live.requests, req_per_s: live.result.requests.average },
    busy_us_per_request: { users_me: busy(me), health_live: busy(live) },
    note: 'samples taken while each load ran only (start-up and shutdown left out); µs of self time per request served',
    self_time: me.groups,
    top_functions: me.functions,
    per_request_us,
    health_live_top_functions: live.functions,
  });
  log(`busy µs per request: users/me ${busy(me)}, health/live ${busy(live)}`);
  log('µs per request   users/me  health/live  beyond');
  for (const row of per_request_us.slice(0, 25))
    log(
      `${String(row.users_me).padStart(9)} ${String(row.health_live).padStart(12)} ${String(row.beyond_the_probe).padStart(7)}  ${row.group}`,
    );
  for (const { function: name, share } of me.functions) log(`${String(share).padStart(5)} %  ${name}`);
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
