/**
 * What the benchmarks that run the gateway without acl share: a token signed here with a key of
 * their own (in acl's shape), and the gateway's `<APP>_URL` variables. Needs no build.
 */
import { randomUUID, sign } from 'node:crypto';

/**
 * JWT_ACCESS_TTL for the apps and the gateway of a benchmark: its tokens are minted for an hour,
 * since a run can outlast the default 15 minutes.
 */
export const BENCH_TOKEN_TTL = '1h';

/** The variable prefix of every app the gateway routes to. */
const APPS = [
  'CONTENT',
  'ASSIGNMENT',
  'INVENTORY',
  'COMMERCIAL',
  'PAYMENT',
  'ACL',
  'DOCUMENTS',
  'CHAT_NOTIFICATIONS',
];

/** `<APP>_URL` of every app set to `url`, then `overrides` (e.g. `{ ACL_URL: ... }`). */
export function upstreamEnv(url, overrides = {}) {
  return { ...Object.fromEntries(APPS.map((app) => [`${app}_URL`, url])), ...overrides };
}

/** An RS256 access token for a random user with `permissions`, valid for an hour. */
export function signToken(privateKey, kid, permissions = []) {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({
    sub: randomUUID(),
    email: 'bench@example.com',
    name: 'Bench',
    employee_number: null,
    groups: [],
    roles: [],
    permissions,
    iss: 'media-backoffice-acl',
    aud: 'media-backoffice',
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
  })}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
}
