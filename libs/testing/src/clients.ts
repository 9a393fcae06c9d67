import type { ServiceName } from '@media/contracts';
import { queryDatabase } from './databases';
import { call, type ApiRequest, type ApiResponse } from './http';
import { stack, type StackInfo } from './stack';

let cached: StackInfo | undefined;

/** The e2e run's stack, booted by the global setup (read once per test file). */
export function e2eStack(): StackInfo {
  cached ??= stack();
  return cached;
}

/**
 * Fails (never stands in) when the run's stack does not run the apps a test needs, saying how to
 * run it: a test that uses another app uses the real one.
 */
export function requireApps(...apps: ServiceName[]): StackInfo {
  const info = e2eStack();
  const missing = apps.filter((app) => !info.urls[app]);
  if (missing.length > 0) {
    throw new Error(
      `This test needs ${missing.join(', ')}, which the stack does not run: include it in E2E_APPS.`,
    );
  }
  return info;
}

export type AppRequest = <T = any>(path: string, request?: ApiRequest) => Promise<ApiResponse<T>>;

/** Requests to one app's paths (`/api/v1/...`), through the gateway as a client makes them. */
export function appClient(prefix: string): AppRequest {
  return <T = any>(path: string, request: ApiRequest = {}) =>
    call<T>(e2eStack().gatewayUrl, `/${prefix}${path}`, request);
}

export type AppQuery = <R extends Record<string, unknown> = Record<string, any>>(
  sql: string,
  params?: unknown[],
) => Promise<R[]>;

/** One query on an app's own database (to arrange what the API cannot, or check what was stored). */
export function appDatabase(app: ServiceName): AppQuery {
  return <R extends Record<string, unknown> = Record<string, any>>(sql: string, params: unknown[] = []) =>
    queryDatabase<R>(e2eStack().databases[app], sql, params);
}

/** Follows a `next` or `previous` link (absolute URLs) with a token. */
export function follow<T = any>(url: string, token: string): Promise<ApiResponse<T>> {
  const parsed = new URL(url);
  return call<T>(`${parsed.protocol}//${parsed.host}`, `${parsed.pathname}${parsed.search}`, { token });
}
