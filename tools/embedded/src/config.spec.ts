import { loadRunnerConfig, RunnerConfigError } from './config';

describe('loadRunnerConfig', () => {
  it('defaults DATA_DIR to ./.data under the working directory and every port to docs/api/contract.md §0', () => {
    const config = loadRunnerConfig({}, '/srv/app');
    expect(config.dataDir).toBe('/srv/app/.data');
    expect(config.ports).toEqual({
      gateway: 3000,
      content: 3001,
      assignment: 3002,
      inventory: 3003,
      commercial: 3004,
      payment: 3005,
      acl: 3006,
      documents: 3007,
      'chat-notifications': 3008,
    });
  });

  it('lets <APP>_PORT override one app and takes PORT as the gateway port when GATEWAY_PORT is unset', () => {
    const config = loadRunnerConfig({ CHAT_NOTIFICATIONS_PORT: '4008', PORT: '8080' }, '/x');
    expect(config.ports['chat-notifications']).toBe(4008);
    expect(config.ports.gateway).toBe(8080);
    expect(config.ports.acl).toBe(3006);
    expect(loadRunnerConfig({ PORT: '8080', GATEWAY_PORT: '9090' }, '/x').ports.gateway).toBe(9090);
  });

  it('refuses a bad port naming the variable', () => {
    expect(() => loadRunnerConfig({ ACL_PORT: 'abc' }, '/x')).toThrow(
      new RunnerConfigError('ACL_PORT', 'must be a port between 1 and 65535'),
    );
    expect(() => loadRunnerConfig({ CONTENT_PORT: '3006' }, '/x')).toThrow(
      /CONTENT_PORT must differ from acl's port 3006/,
    );
  });

  it('refuses a short CURSOR_SECRET, a non-postgres DATABASE_URL and a bad NATS_URL', () => {
    expect(() => loadRunnerConfig({ CURSOR_SECRET: 'short' }, '/x')).toThrow(
      /CURSOR_SECRET must be at least 32/,
    );
    expect(() => loadRunnerConfig({ DATABASE_URL: 'mysql://x/y' }, '/x')).toThrow(/DATABASE_URL/);
    expect(() => loadRunnerConfig({ NATS_URL: 'tcp://x' }, '/x')).toThrow(/NATS_URL/);
    expect(loadRunnerConfig({ NATS_URL: 'inproc' }, '/x').natsUrl).toBe('inproc');
  });

  it('keeps an absolute DATA_DIR and treats empty variables as unset', () => {
    const config = loadRunnerConfig({ DATA_DIR: '/var/lib/media', DATABASE_URL: '', NATS_URL: '  ' }, '/x');
    expect(config.dataDir).toBe('/var/lib/media');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.natsUrl).toBeUndefined();
  });

  it('hands other variables on to the apps, but not those it sets per app itself', () => {
    const config = loadRunnerConfig(
      {
        LOG_LEVEL: 'debug',
        RATE_LIMIT_PER_MINUTE: '50',
        PORT: '1',
        ACL_URL: 'http://x',
        DATABASE_URL: 'postgres://h/d',
      },
      '/x',
    );
    expect(config.passThrough).toEqual({ LOG_LEVEL: 'debug', RATE_LIMIT_PER_MINUTE: '50' });
  });

  it('binds the gateway to 127.0.0.1 unless HOST says otherwise, and keeps HOST from the apps', () => {
    expect(loadRunnerConfig({}, '/x').host).toBe('127.0.0.1');
    const config = loadRunnerConfig({ HOST: '0.0.0.0', GATEWAY_METRICS_PORT: '9500' }, '/x');
    expect(config.host).toBe('0.0.0.0');
    expect(config.gatewayMetricsPort).toBe(9500);
    expect(config.passThrough.HOST).toBeUndefined();
    expect(config.passThrough.GATEWAY_METRICS_PORT).toBeUndefined();
    expect(() => loadRunnerConfig({ HOST: 'a b' }, '/x')).toThrow('Invalid configuration: HOST');
  });

  it("puts the gateway's metrics on 9464 by default, and refuses a port an app has", () => {
    expect(loadRunnerConfig({}, '/x').gatewayMetricsPort).toBe(9464);
    expect(loadRunnerConfig({ GATEWAY_METRICS_PORT: '0' }, '/x').gatewayMetricsPort).toBe(0);
    expect(() => loadRunnerConfig({ GATEWAY_METRICS_PORT: '3006' }, '/x')).toThrow(
      "Invalid configuration: GATEWAY_METRICS_PORT must differ from acl's port 3006",
    );
    expect(() => loadRunnerConfig({ GATEWAY_METRICS_PORT: '70000' }, '/x')).toThrow(
      'Invalid configuration: GATEWAY_METRICS_PORT must be a port between 0 and 65535',
    );
  });
});
