import { generateKeyPairSync } from 'node:crypto';
import { aclConfig } from './config';

const base = {
  PORT: '3006',
  DATABASE_URL: 'postgres://u@h/acl',
  NATS_URL: 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'x'.repeat(32),
};

describe('acl config', () => {
  it('groups its own variables beside the platform ones, with their defaults', () => {
    const config = aclConfig.load({ ...base, JWT_REFRESH_TTL: '1d', ADMIN_EMAIL: 'root@example.com' });
    expect(config).toMatchObject({
      port: 3006,
      signing: { privateKeyPem: undefined, keyGrace: 3_600_000 },
      sessions: { refreshTtl: 86_400_000, maxAge: 30 * 86_400_000 },
      invitations: { ttl: 3 * 86_400_000 },
      admin: { email: 'root@example.com', password: undefined },
    });
  });

  it('stops at boot naming ADMIN_PASSWORD when it breaks the password rule', () => {
    for (const password of ['short', 'x'.repeat(73)]) {
      expect(() => aclConfig.load({ ...base, ADMIN_PASSWORD: password })).toThrow(
        'Invalid configuration: ADMIN_PASSWORD must be 12 to 72 bytes long',
      );
    }
    expect(aclConfig.load({ ...base, ADMIN_PASSWORD: 'twelve bytes' }).admin.password).toBe('twelve bytes');
  });

  it('reads a JWT_PRIVATE_KEY written with literal \\n sequences, and refuses what is not an RSA key', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const oneLine = pem.replace(/\n/g, '\\n');
    expect(oneLine).not.toContain('\n');
    expect(aclConfig.load({ ...base, JWT_PRIVATE_KEY: oneLine }).signing.privateKeyPem).toBe(pem);
    expect(() => aclConfig.load({ ...base, JWT_PRIVATE_KEY: 'not a key' })).toThrow(
      'Invalid configuration: JWT_PRIVATE_KEY must be an RSA private key in PEM form',
    );
  });
});
