import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpSeries } from './http-series';

/** Seconds; from sub-millisecond NATS hops to the gateway's 30 s upstream timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type RpcOutcome = 'ok' | 'error' | 'unavailable';

/**
 * One process part's Prometheus metrics (an app, or the gateway): its own registry, so the
 * embedded default, which runs every app in one process, still reports each under its `app`
 * label. Free of Nest, so the gateway uses it too.
 */
export class AppMetrics {
  readonly registry = new Registry();

  readonly rpcClient: Histogram<'subject' | 'outcome'>;
  readonly rpcServer: Histogram<'subject' | 'outcome'>;
  readonly eventsHandled: Counter<'subject' | 'outcome'>;
  readonly deadLettered: Counter<'subject'>;
  /** `http_requests_total` and `http_request_duration_seconds` (see HttpSeries). */
  private readonly http: HttpSeries;

  constructor(readonly app: string) {
    this.registry.setDefaultLabels({ app });
    // Process memory, CPU, event-loop lag (nodejs_eventloop_lag_*), GC, handles.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    const registers = [this.registry];
    this.http = new HttpSeries(this.registry, LATENCY_BUCKETS);
    this.rpcClient = new Histogram({
      name: 'nats_client_request_duration_seconds',
      help: 'NATS requests this app made, by subject and outcome (unavailable: no answer in time).',
      labelNames: ['subject', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.rpcServer = new Histogram({
      name: 'nats_server_request_duration_seconds',
      help: 'NATS requests this app answered, by subject and outcome.',
      labelNames: ['subject', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.eventsHandled = new Counter({
      name: 'events_handled_total',
      help: 'Durable events delivered to this app’s handlers, by subject and outcome (error: redelivered).',
      labelNames: ['subject', 'outcome'],
      registers,
    });
    this.deadLettered = new Counter({
      name: 'events_dead_lettered_total',
      help: 'Events given up on after their last delivery attempt.',
      labelNames: ['subject'],
      registers,
    });
  }

  /** A gauge whose value is read when Prometheus scrapes (backlogs, pools, consumer lag). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => Promise<void> | void,
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        try {
          await collect(this);
        } catch {
          // A dependency that is down must not fail the whole scrape; the gauge keeps its last value.
        }
      },
    });
  }

  /** Counts one answered HTTP request under its route template. */
  observeHttp(method: string, route: string, status: number, seconds: number): void {
    this.http.observe(method, route, status, seconds);
  }

  /** Times a NATS request or handler and records its outcome. */
  async timeRpc<T>(
    histogram: Histogram<'subject' | 'outcome'>,
    subject: string,
    work: () => Promise<T>,
    outcomeOf: (error: unknown) => RpcOutcome = () => 'error',
  ): Promise<T> {
    const started = performance.now();
    try {
      const result = await work();
      histogram.observe({ subject, outcome: 'ok' }, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      histogram.observe({ subject, outcome: outcomeOf(error) }, (performance.now() - started) / 1000);
      throw error;
    }
  }

  /** The Prometheus text exposition of this registry. */
  async expose(res: ServerResponse): Promise<void> {
    const body = await this.registry.metrics();
    res.writeHead(200, { 'Content-Type': this.registry.contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  }
}

/**
 * Express middleware: counts each request under the route template Express matched
 * (`/content/api/v1/lineup/:id`), or `unmatched`, so label values stay bounded whatever the paths.
 */
export function httpMetrics(metrics: AppMetrics) {
  return (
    req: IncomingMessage & { route?: { path?: string }; baseUrl?: string },
    res: ServerResponse,
    next: () => void,
  ) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
      metrics.observeHttp(req.method ?? 'GET', route, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
