import { processEnv, runProcess, stopTracing } from '@media/platform/core';
import { gatewayConfig } from './config';
import { startGateway } from './start';

/** Runs the gateway alone: config from the environment, clean stop on SIGTERM/SIGINT (docs/api/contract.md §6). */
void runProcess({
  name: 'gateway',
  start: async () => {
    const env = processEnv();
    const shutdownTimeout = gatewayConfig.load(env).timeouts.shutdown;
    return { gateway: await startGateway(env), shutdownTimeout };
  },
  // close() is bounded by SHUTDOWN_TIMEOUT already.
  shutdownTimeout: (running) => running.shutdownTimeout,
  stop: async ({ gateway }) => {
    await gateway.close();
    await stopTracing();
  },
});
