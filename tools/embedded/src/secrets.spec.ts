import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADMIN_EMAIL, generatePassword, loadOrCreateSecrets, SECRETS_FILE } from './secrets';

describe('loadOrCreateSecrets', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'embedded-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a cursor secret, a database password and an admin on the first start, in a 0600 file', () => {
    const secrets = loadOrCreateSecrets(dir, {});
    expect(secrets.cursorSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.webhookSecretsKey).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.postgresPassword.length).toBeGreaterThanOrEqual(32);
    expect(secrets.admin).toEqual({
      email: DEFAULT_ADMIN_EMAIL,
      password: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      passwordSource: 'generated',
    });
    const file = join(dir, SECRETS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      cursorSecret: secrets.cursorSecret,
      postgresPassword: secrets.postgresPassword,
      adminEmail: DEFAULT_ADMIN_EMAIL,
      adminPassword: secrets.admin.password,
      webhookSecretsKey: secrets.webhookSecretsKey,
    });
  });

  it('reuses the stored values on later starts and says the password came from the file', () => {
    const first = loadOrCreateSecrets(dir, {});
    const second = loadOrCreateSecrets(dir, {});
    expect(second.cursorSecret).toBe(first.cursorSecret);
    expect(second.webhookSecretsKey).toBe(first.webhookSecretsKey);
    expect(second.postgresPassword).toBe(first.postgresPassword);
    expect(second.admin).toEqual({ ...first.admin, passwordSource: 'stored' });
  });

  it('prefers variables from the environment and does not store them', () => {
    const given = {
      cursorSecret: 'c'.repeat(40),
      adminEmail: 'boss@example.com',
      adminPassword: 'a-long-password-1',
      webhookSecretsKey: 'f'.repeat(64),
    };
    const secrets = loadOrCreateSecrets(dir, given);
    expect(secrets.cursorSecret).toBe(given.cursorSecret);
    expect(secrets.webhookSecretsKey).toBe(given.webhookSecretsKey);
    expect(secrets.admin).toEqual({
      email: 'boss@example.com',
      password: 'a-long-password-1',
      passwordSource: 'env',
    });
    const stored = JSON.parse(readFileSync(join(dir, SECRETS_FILE), 'utf8'));
    expect(Object.keys(stored)).toEqual(['postgresPassword']);
  });

  it('tightens the mode of an existing file', () => {
    loadOrCreateSecrets(dir, {});
    const file = join(dir, SECRETS_FILE);
    chmodSync(file, 0o644);
    loadOrCreateSecrets(dir, {});
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a file that is not JSON rather than replacing the database password in it', () => {
    writeFileSync(join(dir, SECRETS_FILE), 'oops');
    expect(() => loadOrCreateSecrets(dir, {})).toThrow(/not valid JSON/);
  });
});

describe('generatePassword', () => {
  it('makes 20 characters without look-alikes by default', () => {
    const password = generatePassword();
    expect(password).toHaveLength(20);
    expect(password).not.toMatch(/[01OIl]/);
    expect(generatePassword()).not.toBe(password);
  });
});
