import { SERVICE_NAMES, type AppName, type ServiceName } from '@media/contracts';
import { appEnvironments } from './app-env';

const ports: Record<AppName, number> = {
  gateway: 4000,
  content: 4001,
  assignment: 4002,
  inventory: 4003,
  commercial: 4004,
  payment: 4005,
  acl: 4006,
  documents: 4007,
  'chat-notifications': 4008,
};
const databaseUrls = Object.fromEntries(SERVICE_NAMES.map((app) => [app, `postgres://db/${app}`])) as Record<
  ServiceName,
  string
>;
const input = {
  passThrough: { LOG_LEVEL: 'debug', PORT: '1234' },
  ports,
  databaseUrls,
  natsUrl: 'inproc',
  cursorSecret: 's'.repeat(64),
  admin: { email: 'admin@media.localhost', password: 'pw-pw-pw-pw-pw' },
  dataDir: '/srv/data',
  gateway: { host: '127.0.0.1', metricsPort: 9464 },
};

describe('appEnvironments', () => {
  it('gives each app its own database, the shared bus and secret, and every <APP>_PORT / <APP>_URL', () => {
    const { services } = appEnvironments(input);
    expect(services.content).toMatchObject({
      DATABASE_URL: 'postgres://db/content',
      NATS_URL: 'inproc',
      CURSOR_SECRET: 's'.repeat(64),
      CONTENT_PORT: '4001',
      CHAT_NOTIFICATIONS_PORT: '4008',
      ACL_URL: 'http://127.0.0.1:4006',
      LOG_LEVEL: 'debug',
    });
    expect(services.content.PORT).toBeUndefined();
  });

  it('gives chat-notifications the webhook secrets key and lets webhooks reach receivers on this machine', () => {
    const { services } = appEnvironments({ ...input, webhookSecretsKey: 'k'.repeat(64) });
    expect(services['chat-notifications']).toMatchObject({
      WEBHOOK_SECRETS_KEY: 'k'.repeat(64),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    expect(services.content.WEBHOOK_SECRETS_KEY).toBeUndefined();
    const strict = appEnvironments({ ...input, passThrough: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    expect(strict.services['chat-notifications'].WEBHOOKS_ALLOW_PRIVATE).toBe('false');
  });

  it("points JWT_JWKS_URL at acl's port unless one is given", () => {
    expect(appEnvironments(input).services.payment.JWT_JWKS_URL).toBe(
      'http://127.0.0.1:4006/acl/.well-known/jwks.json',
    );
    expect(appEnvironments({ ...input, jwksUrl: 'https://id.example/jwks' }).gateway.JWT_JWKS_URL).toBe(
      'https://id.example/jwks',
    );
  });

  it('gives the administrator only to acl and no database to the gateway', () => {
    const { services, gateway } = appEnvironments(input);
    expect(services.acl).toMatchObject({
      ADMIN_EMAIL: 'admin@media.localhost',
      ADMIN_PASSWORD: 'pw-pw-pw-pw-pw',
    });
    expect(services.documents.ADMIN_PASSWORD).toBeUndefined();
    expect(gateway.DATABASE_URL).toBeUndefined();
    expect(gateway).toMatchObject({ GATEWAY_PORT: '4000', CONTENT_URL: 'http://127.0.0.1:4001' });
  });

  it("keeps documents' stored files under DATA_DIR unless STORAGE_DIR is given", () => {
    expect(appEnvironments(input).services.documents.STORAGE_DIR).toBe('/srv/data/documents');
    expect(appEnvironments(input).services.content.STORAGE_DIR).toBeUndefined();
    const given = { ...input, passThrough: { STORAGE_DIR: '/mnt/files' } };
    expect(appEnvironments(given).services.documents.STORAGE_DIR).toBe('/mnt/files');
  });

  it('gives the gateway HOST and GATEWAY_METRICS_PORT, which the apps do not get', () => {
    const { services, gateway } = appEnvironments(input);
    expect(gateway).toMatchObject({ HOST: '127.0.0.1', GATEWAY_METRICS_PORT: '9464' });
    expect(services.acl.HOST).toBeUndefined();
  });
});
