#!/usr/bin/env node
/**
 * What the revocation check adds to a request, measured where it runs: `TokenVersions.check` alone
 * (the work added to every authenticated request of every app and the gateway), and the platform's
 * `VerifiedTokens.get` without a TokenVersions and with one, for context. The store knows VERSIONS
 * users' raised versions (the caller's among them, at its token's version, so the token passes).
 * In-process, one core, CALLS calls per sample, the samples interleaved ROUNDS times; reported:
 * median ns per call, and the check's as a share of acl's CPU per `users/me` request (the figure of
 * bench/results/acl-auth-cost.json, 0.4 ms when absent). End-to-end throughput on this shared
 * machine moves by far more than the check costs from run to run; acl-auth-cost.mjs measures it.
 *
 *   npm run build --silent && node bench/revocation-check.mjs
 *
 * Env: CALLS (default 2,000,000), ROUNDS (default 7), VERSIONS (default 10,000). Writes
 * bench/results/revocation-check.json.
 */
import { generateKeyPairSync, createPublicKey, randomUUID, sign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { dist, log, root, writeResult } from './lib/seed-users.mjs';

const CALLS = Number(process.env.CALLS ?? 2_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const VERSIONS = Number(process.env.VERSIONS ?? 10_000);

const require = createRequire(import.meta.url);
const { VerifiedTokens } = require(dist('libs/core/src/tokens/verified-tokens.js'));
const { TokenVersions } = require(dist('libs/core/src/tokens/token-versions.js'));

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
const keys = { published: () => key };
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const claims = {
  sub: randomUUID(),
  email: 'bench@example.com',
  name: 'Bench',
  employee_number: null,
  groups: [],
  roles: ['ADMIN'],
  permissions: ['*'],
  iss: 'media-backoffice-acl',
  aud: 'media-backoffice',
  iat: now,
  exp: now + 900,
  jti: randomUUID(),
  ver: 3,
};
const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'bench' })}.${b64(claims)}`;
const token = `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;

const versions = new TokenVersions(Date.now() - 60_000);
for (let i = 0; i < VERSIONS - 1; i++) versions.raise(randomUUID(), 1 + (i % 5));
versions.raise(claims.sub, 3);
versions.learned([]);

const plain = new VerifiedTokens(keys);
const checked = new VerifiedTokens(keys, versions);
for (const cache of [plain, checked]) cache.remember(token, claims);

function nsPerCall(cache) {
  let hits = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) if (cache.get(token)) hits++;
  const ns = Number(process.hrtime.bigint() - start) / CALLS;
  if (hits !== CALLS) throw new Error(`only ${hits} of ${CALLS} calls answered`);
  return ns;
}

function checkNsPerCall() {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) versions.check(claims);
  return Number(process.hrtime.bigint() - start) / CALLS;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function aclCpuPerRequestMs() {
  const file = join(root, 'bench', 'results', 'acl-auth-cost.json');
  if (!existsSync(file)) return 0.4;
  const result = JSON.parse(readFileSync(file, 'utf8'));
  return result.results?.['users/me direct']?.after?.median_acl_cpu_ms_per_request ?? 0.4;
}

nsPerCall(plain);
nsPerCall(checked);
checkNsPerCall();
const samples = { without: [], with: [], check: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? ['without', 'with'] : ['with', 'without'];
  for (const name of order) samples[name].push(nsPerCall(name === 'with' ? checked : plain));
  samples.check.push(checkNsPerCall());
  log(
    `round ${round}: get without ${samples.without.at(-1).toFixed(1)} ns, with ${samples.with.at(-1).toFixed(1)} ns; check ${samples.check.at(-1).toFixed(1)} ns`,
  );
}
const without = Number(median(samples.without).toFixed(1));
const withCheck = Number(median(samples.with).toFixed(1));
const added = Number(median(samples.check).toFixed(1));
const perRequestMs = aclCpuPerRequestMs();
const report = {
  calls_per_sample: CALLS,
  rounds: ROUNDS,
  known_versions: VERSIONS,
  ns_per_call: { get_without_check: without, get_with_check: withCheck, check: added },
  acl_cpu_ms_per_users_me: perRequestMs,
  added_share_of_users_me_pct: Number(((added / (perRequestMs * 1e6)) * 100).toFixed(4)),
  samples,
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
};
log(
  JSON.stringify(report.ns_per_call),
  `${report.added_share_of_users_me_pct} % of a users/me request's CPU`,
);
await writeResult('revocation-check.json', report);
