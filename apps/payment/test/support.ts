/**
 * Helpers for payment's e2e tests: the stack booted by the global setup, reached through the
 * gateway, BMs created in acl (through its API, or in bulk in its database), and factories that
 * go through payment's own API.
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

/** A request to a payment path (`/api/v1/...`), through the gateway. */
export function payment<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return call<T>(system().gatewayUrl, `/payment${path}`, request);
}

export function paymentDb<R extends Record<string, unknown> = Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return queryDatabase<R>(system().databases.payment, sql, params);
}

export function aclDb<R extends Record<string, unknown> = Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return queryDatabase<R>(system().databases.acl, sql, params);
}

/** A token minted with the stack's signing key. */
export function tokenWith(permissions: string[], sub: string = randomUUID()): string {
  return mintToken(system().keys, { permissions, sub });
}

let finance: string | undefined;
/** A FINANCE-like caller (`commissions:read-all`). */
export function financeToken(): string {
  finance ??= tokenWith(['commissions:read-all']);
  return finance;
}

export function unique(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}`;
}

const admin = (): Promise<string> => adminToken(system());

export interface TestUser {
  id: string;
  email: string;
  name: string;
  employee_number: string | null;
}

/** Creates a user through `POST /acl/api/v1/users`. */
export async function createUser(fields: Record<string, unknown> = {}): Promise<TestUser> {
  const json = {
    email: `${unique('bm')}@example.com`,
    password: 'correct horse battery',
    first_name: 'Test',
    last_name: 'User',
    ...fields,
  };
  const res = await call(system().gatewayUrl, '/acl/api/v1/users', { token: await admin(), json });
  if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
  return {
    id: res.body.id,
    email: res.body.email,
    name: `${json.first_name} ${json.last_name}`,
    employee_number: res.body.employee_number ?? null,
  };
}

export async function postPlan(category: string, tiers: [string, string][]): Promise<ApiResponse<any>> {
  return payment('/api/v1/commissions/plans', {
    token: financeToken(),
    json: { category, tiers: tiers.map(([min, rate]) => ({ min_achievement_pct: min, rate_pct: rate })) },
  });
}

export async function postTarget(
  bm_id: string,
  category: string,
  year: number,
  month: number,
  target_amount: string,
): Promise<ApiResponse<any>> {
  return payment('/api/v1/commissions/targets', {
    token: financeToken(),
    json: { bm_id, category, year, month, target_amount },
  });
}

export async function postCollection(
  bm_id: string,
  category: string,
  amount: string,
  collected_at: string,
): Promise<ApiResponse<any>> {
  const res = await payment('/api/v1/collections', {
    token: financeToken(),
    json: { bm_id, category, amount, collected_at },
  });
  if (res.status !== 201) throw new Error(`collection failed: ${res.status} ${res.text}`);
  return res;
}

export function attainment(query: string, token = financeToken()): Promise<ApiResponse<any>> {
  return payment(`/api/v1/commissions/cm-team-attainment${query}`, { token });
}

/** Follows `next` or `previous` (absolute URLs) with a token. */
export async function follow(url: string, token: string): Promise<ApiResponse<any>> {
  const parsed = new URL(url);
  return call(`${parsed.protocol}//${parsed.host}`, `${parsed.pathname}${parsed.search}`, { token });
}
