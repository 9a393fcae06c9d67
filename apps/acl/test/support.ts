/**
 * Helpers for acl's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would, plus factories that go through acl's own API.
 */
import { randomUUID } from 'node:crypto';
import { adminToken, appClient, appDatabase, e2eStack, mintToken } from '@media/testing';

/** The stack booted by the global setup. */
export const system = e2eStack;

/** acl's public origin through the gateway. */
export function gateway(): string {
  return system().gatewayUrl;
}

/** A request to a acl path (`/api/v1/...`), through the gateway. */
export const acl = appClient('acl');

/** One query on acl's own database. */
export const aclDb = appDatabase('acl');

/** A token minted with the stack's signing key, for a caller that need not exist in acl. */
export function tokenWith(permissions: string[], extra: { sub?: string } = {}): string {
  return mintToken(system().keys, { permissions, sub: extra.sub ?? randomUUID() });
}

/** The bootstrap administrator's access token (one shared login: docs/api/contract.md §1 answers parallel logins 429). */
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

export { follow } from '@media/testing';

export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}
