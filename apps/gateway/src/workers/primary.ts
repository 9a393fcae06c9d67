import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import type { GatewayConfig } from '../config';
import type { GatewayLogger } from '../logger';
import { MetricsListener } from '../metrics/metrics-listener';
import type { RunningGateway } from '../start';
import { PrimaryLimits } from './shared-rate-limit';

/** A worker that died after the start is replaced after this pause (no tight crash loop). */
const RESTART_DELAY_MS = 1_000;

/** Resolves with the port `worker` listens on; rejects when it exits before (its error is on stderr). */
function listening(worker: Worker): Promise<number> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null, signal: string | null) =>
      reject(new Error(`a worker exited before listening (${signal ?? `exit code ${code}`})`));
    worker.once('exit', exited);
    worker.once('listening', (address) => {
      worker.off('exit', exited);
      resolve(address.port);
    });
  });
}

/** SIGTERM to a worker (its own graceful stop), then its exit code. */
async function stopWorker(worker: Worker): Promise<number> {
  if (worker.isDead()) return worker.process.exitCode ?? 0;
  const exit = once(worker, 'exit') as Promise<[number | null, string | null]>;
  worker.process.kill('SIGTERM');
  const [code] = await exit;
  return code ?? 1;
}

/**
 * The primary of GATEWAY_WORKERS: forks the workers (each a whole gateway on the shared public
 * port, node:cluster handing out connections in turn), keeps every client's rate limits for all of
 * them (PrimaryLimits), serves `/metrics` on GATEWAY_METRICS_PORT summed over the workers, and
 * replaces a worker that dies. Its close() sends each worker SIGTERM (each drains as a single
 * gateway does, within SHUTDOWN_TIMEOUT) and resolves once all have exited; it throws when one
 * did not exit cleanly.
 */
export async function startPrimary(config: GatewayConfig, log: GatewayLogger): Promise<RunningGateway> {
  const limits = new PrimaryLimits(config.limits, config.workers);
  const aggregator = new AggregatorRegistry();
  const metrics = new MetricsListener(
    {
      async expose(res: ServerResponse) {
        const body = await aggregator.clusterMetrics();
        res.writeHead(200, { 'Content-Type': aggregator.contentType, 'Cache-Control': 'no-store' });
        res.end(body);
      },
    },
    { ...config.metrics, host: config.host },
  );
  const metricsPort = await metrics.listen();
  let closing = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    limits.serve(worker);
    worker.on('exit', (code, signal) => {
      if (closing) return;
      log.error({ worker: worker.id, code, signal }, 'gateway worker exited; starting another');
      setTimeout(() => {
        if (!closing) fork();
      }, RESTART_DELAY_MS).unref();
    });
    return worker;
  };

  const stopAll = async (): Promise<number[]> =>
    Promise.all(
      Object.values(cluster.workers ?? {}).flatMap((worker) => (worker ? [stopWorker(worker)] : [])),
    );

  const workers = Array.from({ length: config.workers }, fork);
  let port: number;
  try {
    [port] = await Promise.all(workers.map(listening));
  } catch (error) {
    closing = true;
    await stopAll();
    await metrics.close();
    limits.close();
    throw error;
  }
  log.info({ port, metrics_port: metricsPort, workers: config.workers }, 'gateway workers listening');

  return {
    port,
    metricsPort,
    close: async () => {
      closing = true;
      const codes = await stopAll();
      await metrics.close();
      limits.close();
      log.info({ exit_codes: codes }, 'gateway workers stopped');
      log.flush();
      if (codes.some((code) => code !== 0))
        throw new Error(`gateway workers exited with ${codes.join(', ')}`);
    },
  };
}
