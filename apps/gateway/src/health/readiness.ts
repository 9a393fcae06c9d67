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
  /** Failed probes in a row, when the last one failed (it is down from DOWN_AFTER_FAILURES on). */
  failures?: number;
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

/** Consecutive failed probes after which an upstream is reported down (docs/api/contract.md §6). */
export const DOWN_AFTER_FAILURES = 3;

async function probe(pool: Pool, app: ServiceName): Promise<Omit<UpstreamStatus, 'failures'>> {
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

/** What the judge needs to say when an upstream changes state. */
export interface HealthLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * The upstreams' readiness as the gateway reports it, which does not flap (docs/api/contract.md
 * §6): under CPU load a probe can time out while the app is fine, so an upstream that was up is
 * reported down only after DOWN_AFTER_FAILURES failed probes in a row, and up again at its first
 * success. One that has not answered 200 since the gateway started is down until it does.
 */
export class UpstreamHealth {
  /** Per upstream: whether it is reported up, and its failed probes in a row. */
  private readonly state = new Map<ServiceName, { up: boolean; failures: number }>();

  constructor(private readonly log?: HealthLog) {}

  /** Asks every upstream's `/<prefix>/health/ready` in parallel and judges the answers. */
  async check(poolOf: (app: ServiceName) => Pool): Promise<Readiness> {
    const probes = await Promise.all(SERVICE_NAMES.map((app) => probe(poolOf(app), app)));
    const upstreams = Object.fromEntries(
      SERVICE_NAMES.map((app, i) => [app, this.judge(app, probes[i])]),
    ) as Record<ServiceName, UpstreamStatus>;
    const ready = SERVICE_NAMES.every((app) => upstreams[app].status === 'up');
    return { status: ready ? 'ok' : 'error', upstreams };
  }

  private judge(app: ServiceName, probed: Omit<UpstreamStatus, 'failures'>): UpstreamStatus {
    const state = this.state.get(app) ?? { up: false, failures: 0 };
    this.state.set(app, state);
    if (probed.status === 'up') {
      if (!state.up && state.failures > 0) this.log?.info({ upstream: app }, 'upstream ready again');
      state.up = true;
      state.failures = 0;
      return probed;
    }
    state.failures += 1;
    if (state.up && state.failures >= DOWN_AFTER_FAILURES) {
      state.up = false;
      this.log?.warn(
        { upstream: app, failures: state.failures, http_status: probed.http_status, error: probed.error },
        'upstream reported down',
      );
    }
    return { ...probed, status: state.up ? 'up' : 'down', failures: state.failures };
  }
}
