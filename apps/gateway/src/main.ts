import { ConfigError, processEnv, stopTracing } from '@media/platform';
import { loadGatewayConfig } from './config';
import { startGateway, type RunningGateway } from './gateway';

/** Runs the gateway alone: config from the environment, clean stop on SIGTERM/SIGINT (CONTRACT §6). */
async function main(): Promise<void> {
  const env = processEnv();
  let gateway: RunningGateway;
  let shutdownTimeout: number;
  try {
    shutdownTimeout = loadGatewayConfig(env).shutdownTimeout;
    gateway = await startGateway(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // close() is bounded by SHUTDOWN_TIMEOUT already; this only guards against a hang past it.
    const force = setTimeout(() => process.exit(1), shutdownTimeout + 5_000);
    force.unref();
    gateway
      .close()
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  // e.g. the port is taken: one line, not a stack trace, like a configuration error.
  process.stderr.write(
    `gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
