/**
 * Helpers for acl's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would, plus factories that go through acl's own API.
 */
import { randomUUID } from 'node:crypto';
import {
  call,
  mintToken,
  queryDatabase,
  stack,
  type ApiRequest,
  type ApiResponse,
  type StackInfo,
  adminToken,
} from '@media/testing';

let cached: StackInfo | undefined;

export function system(): StackInfo {
  cached ??= stack();
  return cached;
}

/** acl's public origin through the gateway. */
export function gateway(): string {
  return system().gatewayUrl;
}

/** A request to an acl path (`/api/v1/...` or `/.well-known/...`), through the gateway. */
export function acl<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return call<T>(gateway(), `/acl${path}`, request);
}

/** One query on acl's own database (to arrange what the API cannot, or to check what was stored). */
export function aclDb<R extends Record<string, unknown> = Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return queryDatabase<R>(system().databases.acl, sql, params);
}

/** A token minted with the stack's signing key, for a caller that need not exist in acl. */
export function tokenWith(permissions: string[], extra: { sub?: string } = {}): string {
  return mintToken(system().keys, { permissions, sub: extra.sub ?? randomUUID() });
}

/** The bootstrap administrator's access token (one shared login: CONTRACT §1 answers parallel logins 429). */
export const admin = (): Promise<string> => adminToken(system());

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  body: Record<string, any>;
}

/** Creates a user through `POST /acl/api/v1/users` as the administrator. */
export async function createUser(fields: Record<string, unknown> = {}): Promise<CreatedUser> {
  const json = { email: uniqueEmail(), password: PASSWORD, first_name: 'Test', last_name: 'User', ...fields };
  const res = await acl('/api/v1/users', { token: await admin(), json });
  if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
  return { id: res.body.id, email: res.body.email, password: String(json.password), body: res.body };
}

/** Logs in; returns the whole response. */
export function login(email: string, password: string) {
  return acl('/api/v1/auth/token', { json: { email, password } });
}

/** Follows `next` or `previous` (absolute URLs) with a token. */
export async function follow(url: string, token: string): Promise<ApiResponse> {
  const parsed = new URL(url);
  return call(`${parsed.protocol}//${parsed.host}`, `${parsed.pathname}${parsed.search}`, { token });
}

export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}
