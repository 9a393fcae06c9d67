import { APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import type { Pool } from 'undici';

/** How long one upstream may take to say it is ready before it counts as down. */
export const PROBE_TIMEOUT_MS = 2_000;

export interface UpstreamStatus {
  status: 'up' | 'down';
  /** The upstream's answer, or null when it could not be reached. */
  http_status: number | null;
  /** Why an unreachable upstream is down (connection refused, timed out...). */
  error?: string;
}

export interface Readiness {
  status: 'ok' | 'error';
  upstreams: Record<ServiceName, UpstreamStatus>;
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return 'timed out';
  }
  if ((error as { name?: unknown }).name === 'TimeoutError') return 'timed out';
  return typeof code === 'string' ? code : 'unreachable';
}

async function probe(pool: Pool, app: ServiceName): Promise<UpstreamStatus> {
  try {
    const { statusCode, body } = await pool.request({
      path: `/${APPS[app].prefix}/health/ready`,
      method: 'GET',
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    // The body is not needed, but it must be read so the pooled connection can be reused.
    await body.dump();
    return { status: statusCode === 200 ? 'up' : 'down', http_status: statusCode };
  } catch (error) {
    return { status: 'down', http_status: null, error: reason(error) };
  }
}

/** Asks every upstream's `/<prefix>/health/ready` in parallel (docs/api/contract.md §6). */
export async function checkUpstreams(poolOf: (app: ServiceName) => Pool): Promise<Readiness> {
  const results = await Promise.all(SERVICE_NAMES.map((app) => probe(poolOf(app), app)));
  const upstreams = Object.fromEntries(SERVICE_NAMES.map((app, i) => [app, results[i]])) as Record<
    ServiceName,
    UpstreamStatus
  >;
  return { status: results.every((r) => r.status === 'up') ? 'ok' : 'error', upstreams };
}
