/** Apps run as their own processes from the build output, for tests that signal or configure one. */
import { randomBytes } from 'node:crypto';
import { databaseUrl, testEnv, type TestKeys } from '@media/testing';

export { spawnDist, type DistProcess } from '@media/testing';

/** What acl needs to run alone on `port` against `database`. */
export function aclEnv(port: number, database: string, keys: TestKeys): Record<string, string> {
  return {
    PORT: String(port),
    ACL_PORT: String(port),
    DATABASE_URL: databaseUrl(database),
    NATS_URL: testEnv.natsUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    JWT_JWKS_URL: `http://127.0.0.1:${port}/acl/.well-known/jwks.json`,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'admin-password-1234',
    LOG_LEVEL: 'warn',
  };
}
