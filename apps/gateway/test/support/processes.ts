/** Apps run as their own processes from the build output, for tests that signal or configure one. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { databaseUrl, testEnv, type TestKeys } from '@media/testing';

const ROOT = resolve(__dirname, '../../../..');

export interface DistProcess {
  child: ChildProcess;
  output: () => string;
}

export function spawnDist(app: string, env: Record<string, string>): DistProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', app, 'src', 'main.js')], {
    env: { PATH: testEnv.path, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

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
