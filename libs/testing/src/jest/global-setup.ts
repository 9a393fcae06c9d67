import { startStack } from '../stack';

/** Boots the whole system once per e2e run (fresh databases, real NATS). */
export default async function globalSetup(): Promise<void> {
  const info = await startStack();
  process.stderr.write(`\ne2e stack up: gateway ${info.gatewayUrl}, logs in ${info.logDir}\n`);
}
