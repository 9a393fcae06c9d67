import { join } from 'node:path';
import { APPS, envPrefix, SERVICE_NAMES, type AppName, type ServiceName } from '@media/contracts';

export interface AppEnvInput {
  /** Variables handed on unchanged (LOG_LEVEL, BODY_LIMIT, RATE_LIMIT_PER_MINUTE, ...). */
  passThrough: Record<string, string>;
  ports: Record<AppName, number>;
  databaseUrls: Record<ServiceName, string>;
  natsUrl: string;
  cursorSecret: string;
  /** chat-notifications' WEBHOOK_SECRETS_KEY: given by the user or generated into the data directory. */
  webhookSecretsKey?: string;
  /** Given by the user; otherwise acl's JWKS on acl's port. */
  jwksUrl?: string;
  admin: { email: string; password: string };
  /** The data directory: documents keeps its stored files under it. */
  dataDir: string;
  /** Where the gateway's listeners bind (HOST) and its metrics port. */
  gateway: { host: string; metricsPort: number };
}

export interface AppEnvironments {
  services: Record<ServiceName, Record<string, string>>;
  gateway: Record<string, string>;
}

/**
 * The environment object each app is booted with inside the one process: the same variables
 * an app run alone reads (docs/api/contract.md §6), so nothing in the apps knows about the embedded mode.
 * `PORT` is never set: `<APP>_PORT` names every port, and a shared `PORT` would put all nine on one.
 */
export function appEnvironments(input: AppEnvInput): AppEnvironments {
  const common: Record<string, string> = {
    ...input.passThrough,
    NATS_URL: input.natsUrl,
    CURSOR_SECRET: input.cursorSecret,
    JWT_JWKS_URL: input.jwksUrl ?? `http://127.0.0.1:${input.ports.acl}/acl/.well-known/jwks.json`,
  };
  delete common.PORT;
  for (const app of Object.keys(APPS) as AppName[]) {
    common[`${envPrefix(app)}_PORT`] = String(input.ports[app]);
    common[`${envPrefix(app)}_URL`] = `http://127.0.0.1:${input.ports[app]}`;
  }
  const services = {} as Record<ServiceName, Record<string, string>>;
  for (const app of SERVICE_NAMES) {
    services[app] = { ...common, DATABASE_URL: input.databaseUrls[app] };
    // Only acl creates the first administrator; the others have no use for the password.
    if (app === 'acl')
      Object.assign(services[app], { ADMIN_EMAIL: input.admin.email, ADMIN_PASSWORD: input.admin.password });
    // Stored files live with the rest of the data, so DATA_DIR is the whole state to back up
    // (the same variable docker-compose and Kubernetes point at their volume).
    if (app === 'documents') services[app].STORAGE_DIR ??= join(input.dataDir, 'documents');
    // Webhook receivers on the same machine work out of the box (plain http, loopback addresses).
    if (app === 'chat-notifications') {
      if (input.webhookSecretsKey) services[app].WEBHOOK_SECRETS_KEY = input.webhookSecretsKey;
      services[app].WEBHOOKS_ALLOW_HTTP ??= 'true';
      services[app].WEBHOOKS_ALLOW_PRIVATE ??= 'true';
    }
  }
  const gateway = {
    ...common,
    HOST: input.gateway.host,
    GATEWAY_METRICS_PORT: String(input.gateway.metricsPort),
  };
  return { services, gateway };
}
