import { SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { testEnv } from '../env';
import { startStack } from '../stack';

/** Boots the whole system once per e2e run (fresh databases, real NATS). */
export default async function globalSetup(): Promise<void> {
  const unknown = testEnv.e2eApps?.filter((app) => !SERVICE_NAMES.includes(app as ServiceName));
  if (unknown?.length) throw new Error(`E2E_APPS names unknown apps: ${unknown.join(', ')}`);
  const info = await startStack((testEnv.e2eApps as ServiceName[] | undefined) ?? SERVICE_NAMES);
  process.stderr.write(`\ne2e stack up: gateway ${info.gatewayUrl}, logs in ${info.logDir}\n`);
}
