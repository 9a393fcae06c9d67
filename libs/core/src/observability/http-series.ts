import type { Metric, Registry } from 'prom-client';

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** One histogram series: counts per bucket (not cumulative), their sum and count. */
interface Durations {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/** One counter series and the histogram series its requests' durations go to. */
interface Cell {
  labels: Record<string, string>;
  count: number;
  durations: Durations;
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, counted in plain numbers per
 * labelled series and handed to prom-client only when it is scraped. prom-client's own
 * Counter and Histogram hash their labels into a new string on every call (cached children
 * included): a few microseconds and several objects per request on the gateway's hottest path.
 * Here a request is three Map lookups on strings that already exist and a few additions. The
 * exposition (and the cluster aggregator's sum) are prom-client's, unchanged.
 */
export class HttpSeries {
  /** method → route → status → cell. */
  private readonly cells = new Map<string, Map<string, Map<number, Cell>>>();
  /** Every cell, in the order they appeared (the exposition's order, as prom-client's). */
  private readonly all: Cell[] = [];
  private readonly durations = new Map<string, Durations>();

  constructor(
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    const counter = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template (never the raw path) and status.',
      type: 'counter',
      aggregator: 'sum',
    };
    const histogram = {
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by route template.',
      type: 'histogram',
      aggregator: 'sum',
    };
    const reset = () => this.reset();
    const counterMetric = {
      ...counter,
      get: async () => ({ ...counter, values: this.counterSamples() }),
      reset,
    };
    const histogramMetric = {
      ...histogram,
      get: async () => ({ ...histogram, values: this.histogramSamples(histogram.name) }),
      reset,
    };
    // Not prom-client's classes, but what its registry reads of a metric (name, get, reset).
    registry.registerMetric(counterMetric as unknown as Metric);
    registry.registerMetric(histogramMetric as unknown as Metric);
  }

  /** Counts one answered request under its route template. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let routes = this.cells.get(method);
    if (!routes) {
      routes = new Map();
      this.cells.set(method, routes);
    }
    let statuses = routes.get(route);
    if (!statuses) {
      statuses = new Map();
      routes.set(route, statuses);
    }
    let cell = statuses.get(status);
    if (!cell) {
      cell = this.cell(method, route, status);
      statuses.set(status, cell);
    }
    cell.count += 1;
    const durations = cell.durations;
    durations.count += 1;
    durations.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i += 1) {
      if (seconds <= bounds[i]) {
        durations.buckets[i] += 1;
        break;
      }
    }
  }

  private cell(method: string, route: string, status: number): Cell {
    const statusClass = `${Math.floor(status / 100)}xx`;
    const key = `${method} ${statusClass} ${route}`;
    let durations = this.durations.get(key);
    if (!durations) {
      durations = {
        labels: { method, route, status_class: statusClass },
        buckets: this.bounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      this.durations.set(key, durations);
    }
    const cell = { labels: { method, route, status: String(status) }, count: 0, durations };
    this.all.push(cell);
    return cell;
  }

  private counterSamples(): Sample[] {
    const samples: Sample[] = [];
    for (const cell of this.all) samples.push({ labels: { ...cell.labels }, value: cell.count });
    return samples;
  }

  /** As prom-client's Histogram lists them: cumulative buckets, `+Inf`, sum and count per series. */
  private histogramSamples(name: string): Sample[] {
    const samples: Sample[] = [];
    for (const series of this.durations.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.buckets[i];
        samples.push({
          labels: { le: bound, ...series.labels },
          value: cumulative,
          metricName: `${name}_bucket`,
        });
      });
      samples.push({
        labels: { le: '+Inf', ...series.labels },
        value: series.count,
        metricName: `${name}_bucket`,
      });
      samples.push({ labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` });
      samples.push({ labels: { ...series.labels }, value: series.count, metricName: `${name}_count` });
    }
    return samples;
  }

  private reset(): void {
    this.cells.clear();
    this.all.length = 0;
    this.durations.clear();
  }
}
