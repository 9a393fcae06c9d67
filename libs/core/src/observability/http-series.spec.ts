import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { HttpSeries } from './http-series';

const BOUNDS = [0.001, 0.01, 0.1, 1];

/** The same requests counted by HttpSeries and by prom-client's own Counter and Histogram. */
function both(requests: [string, string, number, number][]): { series: Registry; reference: Registry } {
  const series = new Registry();
  series.setDefaultLabels({ app: 'x' });
  const http = new HttpSeries(series, BOUNDS);
  const reference = new Registry();
  reference.setDefaultLabels({ app: 'x' });
  const counter = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template (never the raw path) and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [reference],
  });
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route template.',
    labelNames: ['method', 'route', 'status_class'],
    buckets: BOUNDS,
    registers: [reference],
  });
  for (const [method, route, status, seconds] of requests) {
    http.observe(method, route, status, seconds);
    counter.inc({ method, route, status: String(status) });
    histogram.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }
  return { series, reference };
}

/** The exposition with each sample's labels in name order (their order means nothing to Prometheus). */
function normalized(text: string): string {
  return text.replace(/\{([^}]*)\}/g, (_, labels: string) => `{${labels.split(',').sort().join(',')}}`);
}

const REQUESTS: [string, string, number, number][] = [
  ['GET', '/content/*', 200, 0.0004],
  ['GET', '/content/*', 200, 0.02],
  ['GET', '/content/*', 204, 3],
  ['GET', '/content/*', 404, 0.001],
  ['POST', '/acl/*', 201, 0.5],
  ['GET', '/health/live', 200, 0.00001],
];

describe('HttpSeries', () => {
  it("exposes the same samples as prom-client's Counter and Histogram for the same requests", async () => {
    const { series, reference } = both(REQUESTS);
    expect(normalized(await series.metrics())).toBe(normalized(await reference.metrics()));
  });

  it('sums over processes as prom-client does (the gateway workers’ /metrics)', async () => {
    const one = both(REQUESTS);
    const two = both(REQUESTS.slice(0, 3));
    const summed = AggregatorRegistry.aggregate([
      await one.series.getMetricsAsJSON(),
      await two.series.getMetricsAsJSON(),
    ]);
    const expected = AggregatorRegistry.aggregate([
      await one.reference.getMetricsAsJSON(),
      await two.reference.getMetricsAsJSON(),
    ]);
    expect(normalized(await summed.metrics())).toBe(normalized(await expected.metrics()));
  });

  it('starts again from nothing when the registry is reset', async () => {
    const { series } = both(REQUESTS);
    series.resetMetrics();
    expect(await series.metrics()).not.toContain('http_requests_total{');
  });
});
