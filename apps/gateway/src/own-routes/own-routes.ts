import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceName } from '@media/contracts';
import { DomainError } from '@media/core';
import type { Pool } from 'undici';
import { ASYNCAPI_DOCUMENT } from '../docs/generated/asyncapi';
import { mergedOpenApi } from '../docs/openapi';
import { DOCS_CSP, serveDocs } from '../docs/swagger-ui';
import { UpstreamHealth, type HealthLog, type Readiness } from '../health/readiness';
import { sendError } from '../proxy/errors';

/** How long one readiness report of every upstream is reused. */
const READINESS_CACHE_MS = 1_000;

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const payload = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

export interface OwnRoutesDeps {
  pool: (app: ServiceName) => Pool;
  /** Whether the gateway is shutting down (its readiness is then 503). */
  closing: () => boolean;
  /** Where an upstream reported down or up again is logged. */
  log?: HealthLog;
}

/**
 * The gateway's own routes: `/health/*`, `/openapi.json`, `/asyncapi.json` and `/docs` (its
 * metrics are on a listener of their own, MetricsListener).
 */
export class OwnRoutes {
  /** The last readiness report, reused for READINESS_CACHE_MS. */
  private readiness?: { at: number; report: Promise<Readiness> };
  private readonly health: UpstreamHealth;

  constructor(private readonly deps: OwnRoutesDeps) {
    this.health = new UpstreamHealth(deps.log);
  }

  /** Answers `path` (headers common to every answer already set); 405 for a write, 404 for anything else. */
  async answer(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, new DomainError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`), {
        Allow: 'GET, HEAD',
      });
      return;
    }
    if (path === '/health/live') return sendJson(res, 200, { status: 'ok' });
    if (path === '/health/ready') {
      const readiness = await this.readinessReport();
      return sendJson(res, readiness.status === 'ok' && !this.deps.closing() ? 200 : 503, readiness);
    }
    if (path === '/docs' || path === '/docs/') res.setHeader('Content-Security-Policy', DOCS_CSP);
    if (path === '/openapi.json') return sendJson(res, 200, await mergedOpenApi(this.deps.pool));
    if (path === '/asyncapi.json') return sendJson(res, 200, ASYNCAPI_DOCUMENT);
    if (serveDocs(path, res)) return;
    sendError(res, new DomainError(404, 'not_found', `Nothing at ${path}.`));
  }

  /** Every upstream's readiness, asked at most once per READINESS_CACHE_MS however many ask. */
  private readinessReport(now = Date.now()): Promise<Readiness> {
    if (!this.readiness || now - this.readiness.at >= READINESS_CACHE_MS) {
      this.readiness = { at: now, report: this.health.check(this.deps.pool) };
    }
    return this.readiness.report;
  }
}
