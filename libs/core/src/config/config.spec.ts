import { defineConfig } from './define-config';
import { ConfigError, validateConfig } from './env';
import { parseByteSize, parseDuration } from './parsers';
import { platformConfig } from './platform-config';
import { PlatformEnv } from './platform-env';

const valid = {
  PORT: '3001',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/content',
  NATS_URL: 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'x'.repeat(32),
};

describe('parseByteSize', () => {
  it.each([
    ['1048576', 1048576],
    ['512kb', 512 * 1024],
    ['1mb', 1024 * 1024],
    ['50MiB', 50 * 1024 * 1024],
    ['2gb', 2 * 1024 ** 3],
  ])('reads %s as %d bytes', (text, bytes) => expect(parseByteSize(text)).toBe(bytes));

  it('refuses text that is not a size', () => expect(parseByteSize('lots')).toBeUndefined());
});

describe('parseDuration', () => {
  it.each([
    ['2000', 2000],
    ['30s', 30_000],
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
  ])('reads %s as %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it('refuses text that is not a duration', () => expect(parseDuration('soon')).toBeUndefined());
});

describe('validateConfig', () => {
  it('builds a typed config with defaults', () => {
    const config = validateConfig(PlatformEnv, valid);
    expect(config.PORT).toBe(3001);
    expect(config.BODY_LIMIT).toBe(1024 * 1024);
    expect(config.UPLOAD_LIMIT).toBe(50 * 1024 * 1024);
    expect(config.NATS_REQUEST_TIMEOUT).toBe(2000);
  });

  it('converts sizes and durations given as text', () => {
    const config = validateConfig(PlatformEnv, {
      ...valid,
      BODY_LIMIT: '2mb',
      NATS_REQUEST_TIMEOUT: '5s',
    });
    expect(config.BODY_LIMIT).toBe(2 * 1024 * 1024);
    expect(config.NATS_REQUEST_TIMEOUT).toBe(5000);
  });

  it('names a missing variable in one line', () => {
    const { DATABASE_URL: _omitted, ...rest } = valid;
    expect(() => validateConfig(PlatformEnv, rest)).toThrow(new ConfigError('DATABASE_URL', 'is required'));
    expect(() => validateConfig(PlatformEnv, rest)).toThrow(
      'Invalid configuration: DATABASE_URL is required',
    );
  });

  it.each([
    ['PORT', 'http', /PORT must be an integer port/],
    ['PORT', '70000', /PORT must be a port/],
    ['NATS_URL', 'http://x', /NATS_URL must be nats:\/\//],
    ['CURSOR_SECRET', 'short', /CURSOR_SECRET must be at least 32 characters/],
    ['BODY_LIMIT', 'big', /BODY_LIMIT must be a size/],
  ])('names an invalid %s=%s', (name, value, message) => {
    expect(() => validateConfig(PlatformEnv, { ...valid, [name]: value })).toThrow(message);
  });
});

describe('database limits', () => {
  it('defaults to a pool of 10 closing connections idle for 30 s, a 30 s statement timeout and a 60 s idle-in-transaction timeout', () => {
    const config = validateConfig(PlatformEnv, valid);
    expect([
      config.DB_POOL_MAX,
      config.DB_POOL_IDLE_TIMEOUT,
      config.DB_STATEMENT_TIMEOUT,
      config.DB_IDLE_IN_TRANSACTION_TIMEOUT,
    ]).toEqual([10, 30_000, 30_000, 60_000]);
  });

  it('reads DB_POOL_MAX 2..1000 and durations', () => {
    const config = validateConfig(PlatformEnv, {
      ...valid,
      DB_POOL_MAX: '1000',
      DB_STATEMENT_TIMEOUT: '0',
      DB_IDLE_IN_TRANSACTION_TIMEOUT: '5m',
    });
    expect([config.DB_POOL_MAX, config.DB_STATEMENT_TIMEOUT, config.DB_IDLE_IN_TRANSACTION_TIMEOUT]).toEqual([
      1000, 0, 300_000,
    ]);
    expect(validateConfig(PlatformEnv, { ...valid, DB_POOL_MAX: '2' }).DB_POOL_MAX).toBe(2);
    expect(validateConfig(PlatformEnv, { ...valid, DB_POOL_IDLE_TIMEOUT: '5s' }).DB_POOL_IDLE_TIMEOUT).toBe(
      5_000,
    );
    expect(validateConfig(PlatformEnv, { ...valid, DB_POOL_IDLE_TIMEOUT: '1s' }).DB_POOL_IDLE_TIMEOUT).toBe(
      1_000,
    );
  });

  it.each([
    ['DB_POOL_MAX', '1'],
    ['DB_POOL_MAX', '1001'],
    ['DB_POOL_MAX', 'many'],
    ['DB_STATEMENT_TIMEOUT', 'soon'],
    ['DB_IDLE_IN_TRANSACTION_TIMEOUT', '-1'],
    ['DB_POOL_IDLE_TIMEOUT', 'soon'],
  ])('stops at boot naming %s=%s', (name, value) => {
    expect(() => validateConfig(PlatformEnv, { ...valid, [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name} `),
    );
  });

  it('refuses a DB_POOL_IDLE_TIMEOUT under a second, saying so', () => {
    expect(() => validateConfig(PlatformEnv, { ...valid, DB_POOL_IDLE_TIMEOUT: '500ms' })).toThrow(
      /^Invalid configuration: DB_POOL_IDLE_TIMEOUT must be a duration of 1s or more/,
    );
  });
});

describe('token rules', () => {
  it('defaults JWT_ACCESS_TTL to 15 minutes and JWT_CLOCK_SKEW to 30 s', () => {
    const config = validateConfig(PlatformEnv, valid);
    expect([config.JWT_ACCESS_TTL, config.JWT_CLOCK_SKEW]).toEqual([900_000, 30_000]);
  });
});

describe('the typed config', () => {
  const config = defineConfig(PlatformEnv, platformConfig);

  it('groups the variables as code reads them, camelCase, defaults filled', () => {
    expect(config.load({ ...valid, DB_POOL_MAX: '4', NATS_CREDS_FILE: '/run/app.creds' })).toMatchObject({
      port: 3001,
      database: {
        url: valid.DATABASE_URL,
        poolMax: 4,
        poolIdleTimeout: 30_000,
        statementTimeout: 30_000,
        idleInTransactionTimeout: 60_000,
      },
      nats: { url: valid.NATS_URL, requestTimeout: 2000, credsFile: '/run/app.creds', tls: {} },
      auth: {
        issuer: 'media-backoffice-acl',
        audience: 'media-backoffice',
        accessTtl: 900_000,
        clockSkew: 30_000,
      },
      limits: { body: 1024 * 1024, upload: 50 * 1024 * 1024 },
      events: { maxDeliver: 10, retention: 8 * 86_400_000 },
      metrics: { enabled: true },
      tracing: { otlpEndpoint: undefined },
      shutdownTimeout: 10_000,
    });
  });

  it('still names the variable when one is wrong', () => {
    expect(() => config.load({ ...valid, EVENTS_REPLICAS: '9' })).toThrow(
      /^Invalid configuration: EVENTS_REPLICAS must be an integer between 1 and 5$/,
    );
  });

  it('fills derived defaults before validating them', () => {
    const derived = defineConfig(PlatformEnv, (env) => env.JWT_JWKS_URL, {
      defaults: (variables) => ({
        ...variables,
        JWT_JWKS_URL: variables.JWT_JWKS_URL ?? 'http://acl:3006/jwks',
      }),
    });
    expect(derived.load(valid)).toBe('http://acl:3006/jwks');
    expect(() => derived.load({ ...valid, JWT_JWKS_URL: 'ftp://x' })).toThrow(/JWT_JWKS_URL/);
  });
});

describe('the audit trail', () => {
  const config = defineConfig(PlatformEnv, platformConfig);

  it("reads acl's audit keys beside its token JWKS unless AUDIT_KEYS_URL says otherwise, and checkpoints every minute", () => {
    expect(
      config.load({ ...valid, JWT_JWKS_URL: 'http://acl:3006/acl/.well-known/jwks.json' }).audit,
    ).toMatchObject({
      keysUrl: 'http://acl:3006/acl/.well-known/audit-keys.json',
      checkpointInterval: 60_000,
    });
    expect(
      config.load({
        ...valid,
        AUDIT_KEYS_URL: 'https://keys.example/audit.json',
        AUDIT_CHECKPOINT_INTERVAL: '5m',
      }).audit,
    ).toMatchObject({ keysUrl: 'https://keys.example/audit.json', checkpointInterval: 300_000 });
    expect(() => config.load({ ...valid, AUDIT_CHECKPOINT_INTERVAL: '10' })).toThrow(
      /AUDIT_CHECKPOINT_INTERVAL/,
    );
  });
});
