/**
 * Helpers for assignment's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would; users are real acl users (the claim asks acl about them).
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

/** A request to an assignment path (`/api/v1/...`), through the gateway. */
export function api<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return call<T>(system().gatewayUrl, `/assignment${path}`, request);
}

/** A request to an acl path, through the gateway. */
export function aclApi<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return call<T>(system().gatewayUrl, `/acl${path}`, request);
}

/** One query on assignment's own database. */
export function db<R extends Record<string, unknown> = Record<string, any>>(
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return queryDatabase<R>(system().databases.assignment, sql, params);
}

/** A token minted with the stack's signing key. */
export function tokenFor(sub: string, permissions: string[], groups: string[] = []): string {
  return mintToken(system().keys, { sub, permissions, groups });
}

/** A token with `tasks:assign` (creates tasks) for a caller that need not exist in acl. */
export function assigner(): string {
  return tokenFor(randomUUID(), ['tasks:assign', 'tasks:read']);
}

/** The bootstrap administrator's access token (one shared login). */
export const admin = (): Promise<string> => adminToken(system());

export interface User {
  id: string;
  email: string;
  name: string;
  /** A token carrying the user's id and the permissions its roles give. */
  token: string;
}

const ROLE_PERMISSIONS: Record<string, string[]> = {
  EDITOR: ['tasks:read', 'tasks:claim', 'lineup:read', 'lineup:write'],
  CORRESPONDENT: ['tasks:read', 'tasks:claim', 'documents:write', 'story-categories:read'],
  SALES: ['bookings:read', 'bookings:write', 'analytics:sales', 'lineup:read', 'documents:write'],
};

/** Creates a real user in acl (through its API) with the given roles and groups. */
export async function createUser(roles: string[] = ['CORRESPONDENT'], groups: string[] = []): Promise<User> {
  const first = `T${randomUUID().slice(0, 6)}`;
  const json = {
    email: `task-${randomUUID().slice(0, 12)}@example.com`,
    password: 'correct horse battery',
    first_name: first,
    last_name: 'Worker',
    roles,
    groups,
  };
  const res = await aclApi('/api/v1/users', { token: await admin(), json });
  if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
  const permissions = [...new Set(roles.flatMap((r) => ROLE_PERMISSIONS[r] ?? []))];
  return {
    id: res.body.id,
    email: res.body.email,
    name: `${first} Worker`,
    token: tokenFor(res.body.id, permissions, groups),
  };
}

export async function createGroup(): Promise<string> {
  const res = await aclApi('/api/v1/groups', {
    token: await admin(),
    json: { name: `tasks-${randomUUID()}` },
  });
  if (res.status !== 201) throw new Error(`group create failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Creates a task through the API (as an assigner); returns its body. */
export async function createTask(fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await api('/api/v1/tasks', {
    token: assigner(),
    json: { workflow_node_code: 'review', node_preview_name: 'Review the story', ...fields },
  });
  if (res.status !== 201) throw new Error(`task create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Outbox rows of one task (what the relay publishes), oldest first. */
export function eventsOf(taskId: string): Promise<{ subject: string; payload: Record<string, any> }[]> {
  return db(`SELECT subject, payload FROM outbox WHERE payload->>'task_id' = $1 ORDER BY created_at, id`, [
    taskId,
  ]) as Promise<{ subject: string; payload: Record<string, any> }[]>;
}

/** Follows `next` or `previous` (absolute URLs) with a token. */
export async function follow(url: string, token: string): Promise<ApiResponse<any>> {
  const parsed = new URL(url);
  return call(`${parsed.protocol}//${parsed.host}`, `${parsed.pathname}${parsed.search}`, { token });
}
