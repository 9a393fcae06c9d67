import cluster from 'node:cluster';
import { processEnv, runProcess, stopTracing } from '@media/core';
import { gatewayConfig } from './config';
import { createLogger } from './logger';
import { startGateway } from './start';
import { holdingSignals } from './workers/held-signals';
import { startPrimary } from './workers/primary';

/**
 * Runs the gateway alone: config from the environment, clean stop on SIGTERM/SIGINT
 * (docs/api/contract.md §6). With GATEWAY_WORKERS above 1 this process is the primary (workers,
 * shared limits, metrics) and each worker runs this file again as one gateway.
 */
void runProcess({
  name: 'gateway',
  start: () => holdingSignals(start),
  // close() is bounded by SHUTDOWN_TIMEOUT already.
  shutdownTimeout: (running) => running.shutdownTimeout,
  stop: async ({ gateway }) => {
    await gateway.close();
    await stopTracing();
  },
});

/** The primary of GATEWAY_WORKERS, or one gateway (a worker, or the only process). */
async function start() {
  const env = processEnv();
  const config = gatewayConfig.load(env);
  const shutdownTimeout = config.timeouts.shutdown;
  if (cluster.isPrimary && config.workers > 1) {
    return { gateway: await startPrimary(config, createLogger(config.log.level)), shutdownTimeout };
  }
  return { gateway: await startGateway(env, { worker: cluster.isWorker, alone: true }), shutdownTimeout };
}
