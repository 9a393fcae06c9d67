import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { bearerToken, DomainError } from '@media/core';
import { listenOn } from '../connections/listen';
import { sendError } from '../proxy/errors';

/** What the listener answers with: this process's metrics, or (the primary's) every worker's summed. */
export interface MetricsSource {
  expose(res: ServerResponse): Promise<void>;
}

export interface MetricsListenerOptions {
  /** METRICS_TOKEN: when set, `/metrics` answers only a scraper that presents it. */
  token?: string;
  /** GATEWAY_METRICS_PORT (0: one the system picks). */
  port: number;
  /** HOST, as the public listener (undefined: every interface). */
  host?: string;
}

/**
 * The gateway's Prometheus metrics on a listener of their own (docs/api/contract.md §2 "What is
 * not public"): the public port never serves them, so a scraper reaches them on the pod's address
 * and a client on the internet does not. Only `GET /metrics` is answered; anything else is 404.
 */
export class MetricsListener {
  private readonly server: Server;

  constructor(
    private readonly metrics: MetricsSource,
    private readonly options: MetricsListenerOptions,
  ) {
    this.server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
      this.answer(req, res).catch(() => res.destroy());
    });
  }

  listen(): Promise<number> {
    return listenOn(this.server, this.options.port, this.options.host);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return sendError(res, new DomainError(404, 'not_found', `Nothing at ${path}.`));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(
        res,
        new DomainError(405, 'method_not_allowed', `${req.method} is not allowed on /metrics.`),
        {
          Allow: 'GET, HEAD',
        },
      );
    }
    const expected = this.options.token;
    if (expected) {
      const given = Buffer.from(bearerToken(req.headers.authorization) ?? '');
      const wanted = Buffer.from(expected);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        return sendError(
          res,
          new DomainError(401, 'not_authenticated', 'The metrics token is missing or wrong.'),
          { 'WWW-Authenticate': 'Bearer' },
        );
      }
    }
    await this.metrics.expose(res);
  }
}
