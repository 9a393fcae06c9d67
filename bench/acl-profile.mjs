#!/usr/bin/env node
/**
 * Where an authenticated request's CPU goes: acl runs under `node --cpu-prof` while autocannon
 * sends `GET /acl/api/v1/users/me` (CONNECTIONS connections, DURATION seconds) straight to it;
 * the profile's self time is grouped by package (bench/lib/cpu-profile.mjs). The gateway and
 * content of the stack are started too but not loaded.
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
  let result;
  const window = {};
  try {
    const login = await fetch(`${stack.urls.acl}/acl/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stack.admin),
    });
    const { access_token: token } = await login.json();
    assert(login.status === 200, `login: ${login.status}`);
    log(`users/me for ${DURATION} s`);
    window.from = monotonicMicros();
    result = await runAutocannon({
      url: `${stack.urls.acl}/acl/api/v1/users/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: CONNECTIONS,
      duration: DURATION,
    });
    window.to = monotonicMicros();
    assert(result.non2xx === 0, `${result.non2xx} non-2xx`);
  } finally {
    await stack.stop();
  }
  const file = readdirSync(profiles).find((name) => name.includes(`.${stack.pids.acl}.`));
  assert(file, `no profile of acl (pid ${stack.pids.acl}) in ${profiles}`);
  const { groups, functions } = selfTime(join(profiles, file), window);
  rmSync(profiles, { recursive: true, force: true });
  await writeResult('acl-profile.json', {
    benchmark: 'self time of acl serving GET /acl/api/v1/users/me, grouped by package',
    measured_at: new Date().toISOString(),
    load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
    requests: result.requests.total,
    req_per_s: result.requests.average,
    note: 'samples taken while the load ran only (start-up and shutdown left out)',
    self_time: groups,
    top_functions: functions,
  });
  for (const { group, share } of groups.slice(0, 20)) log(`${String(share).padStart(5)} %  ${group}`);
  for (const { function: name, share } of functions) log(`${String(share).padStart(5)} %  ${name}`);
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
