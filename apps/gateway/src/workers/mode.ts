import { AggregatorRegistry } from 'prom-client';
import type { AppMetrics } from '@media/core';
import type { GatewayConfig } from '../config';
import { MetricsListener } from '../metrics/metrics-listener';
import { RateLimiter } from '../proxy/rate-limit';
import { ClusterLimit, type ClientLimit } from './shared-rate-limit';

/** How one gateway process runs beside others. */
export interface GatewayMode {
  /**
   * One of GATEWAY_WORKERS processes: the per-client limits are kept by the primary and its
   * metrics served (summed over the workers) by the primary's listener, not by one of its own.
   */
  worker?: boolean;
  /** Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT): without, no span is opened. */
  tracing?: boolean;
}

/** What one process holds of the gateway's limits and metrics. */
export interface ProcessShare {
  limiter: ClientLimit;
  healthLimiter: ClientLimit;
  /** GATEWAY_METRICS_PORT's listener: a worker has none (the primary serves them all). */
  metricsListener?: MetricsListener;
  /** MAX_CONNECTIONS and MAX_WEBSOCKETS are the gateway's: each worker holds its share. */
  connections: { maxConnections: number; maxWebsockets: number };
}

/**
 * Alone, a process keeps its clients' limits and serves its metrics; a worker asks the primary
 * for the limits and hands it its metrics.
 */
export function processShare(config: GatewayConfig, mode: GatewayMode, metrics: AppMetrics): ProcessShare {
  const { limits } = config;
  if (!mode.worker) {
    return {
      limiter: new RateLimiter(limits.ratePerMinute),
      healthLimiter: new RateLimiter(limits.healthRatePerMinute),
      metricsListener: new MetricsListener(metrics, { ...config.metrics, host: config.host }),
      connections: limits,
    };
  }
  // The primary asks the workers for these and sums them on GATEWAY_METRICS_PORT (an aggregator
  // made here is what makes prom-client answer the primary's questions).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
  const share = (limit: number) => Math.max(1, Math.ceil(limit / config.workers));
  return {
    limiter: new ClusterLimit('api', limits.ratePerMinute),
    healthLimiter: new ClusterLimit('health', limits.healthRatePerMinute),
    connections: {
      maxConnections: share(limits.maxConnections),
      maxWebsockets: share(limits.maxWebsockets),
    },
  };
}
