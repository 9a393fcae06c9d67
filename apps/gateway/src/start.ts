import { runInApp, startTracing } from '@media/core';
import { gatewayConfig } from './config';
import { Gateway } from './gateway';
import type { GatewayMode } from './workers/mode';
import { createLogger } from './logger';

/** A running gateway, as `main.ts` and the embedded runner hold it. */
export interface RunningGateway {
  /** The port it listens on (the real one when 0 was asked for). */
  port: number;
  /** The port of its `/metrics` listener (GATEWAY_METRICS_PORT; the real one when 0 was asked for). */
  metricsPort: number;
  /** Stops accepting, lets in-flight requests finish (bounded by SHUTDOWN_TIMEOUT), closes pools. */
  close(): Promise<void>;
}

/**
 * Starts the gateway (docs/api/contract.md §0): a plain node:http server whose handler routes by first path
 * segment to keep-alive undici pools, with the gateway's own `/health`, `/openapi.json` and
 * `/docs` beside it. Throws ConfigError for a bad variable.
 */
export function startGateway(
  env: Record<string, string | undefined>,
  options: StartOptions = {},
): Promise<RunningGateway> {
  // Its server and everything it starts are the gateway's (logs, spans), also in the embedded
  // default. Alone in its process and without spans to tag, there is nothing else to tell it
  // from: no async context then, whose hooks cost every request's promises and writes.
  const tracing = Boolean(gatewayConfig.load(env).tracing.otlpEndpoint);
  if (options.alone && !tracing) return boot(env, options);
  return runInApp({ app: 'gateway' }, () => boot(env, options));
}

/** How `main.ts` runs the gateway; the embedded runner and tests give none of it. */
export interface StartOptions {
  /** One of GATEWAY_WORKERS processes under node:cluster (limits kept and metrics served by the primary). */
  worker?: boolean;
  /** The only thing in its process: buffered log writes, no async context unless tracing. */
  alone?: boolean;
}

async function boot(env: Record<string, string | undefined>, options: StartOptions): Promise<RunningGateway> {
  const config = gatewayConfig.load(env);
  const mode: GatewayMode = {
    worker: options.worker,
    tracing: startTracing('gateway', config.tracing.otlpEndpoint),
  };
  const log = createLogger(config.log.level, { buffered: options.alone });
  const gateway = new Gateway(config, log, mode);
  const { port, metricsPort } = await gateway.listen();
  log.info({ port, metrics_port: metricsPort, upstreams: config.upstreams }, 'gateway listening');
  return { port, metricsPort, close: () => gateway.close() };
}
