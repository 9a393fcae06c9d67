/**
 * An app booted from its build output the way production runs it (docs/api/contract.md §6): configuration
 * from the environment only, one line naming a bad variable, SIGTERM drains and exits 0.
 * Needs `nx run-many -t build` first (`npm test` does it).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  eventually,
  freePort,
  testEnv,
} from '@media/testing';

const MAIN = join(__dirname, '../../../dist/apps/content/src/main.js');

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

const base = {
  NATS_URL: testEnv.natsUrl,
  CURSOR_SECRET: 'c'.repeat(40),
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
  LOG_LEVEL: 'silent',
};

describe('booting an app from dist', () => {
  it('stops with one line naming a missing variable', async () => {
    const { DATABASE_URL: _omitted, ...env } = base;
    const app = run(env);
    expect(await app.exited).toBe(1);
    expect(app.stderr().trim()).toBe('Invalid configuration: DATABASE_URL is required');
  });

  it('stops with one line naming an invalid variable', async () => {
    const app = run({ ...base, NATS_URL: 'amqp://elsewhere' });
    expect(await app.exited).toBe(1);
    expect(app.stderr().trim()).toBe(
      'Invalid configuration: NATS_URL must be nats://host:port (comma-separated) or inproc',
    );
  });

  it('serves its prefix on PORT, then drains and exits 0 on SIGTERM', async () => {
    const db = `e2e_${Date.now()}_boot_content`;
    await createDatabases([db]);
    const port = await freePort();
    const app = run({ ...base, DATABASE_URL: databaseUrl(db), PORT: String(port) });
    try {
      const ready = await eventually(
        () =>
          call(`http://127.0.0.1:${port}`, '/content/health/ready').then(
            (r) => r.status,
            () => 0,
          ),
        (status) => status === 200,
        60_000,
      );
      expect(ready).toBe(200);
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    } finally {
      app.child.kill('SIGKILL');
      await dropDatabases([db]);
    }
    // Up to 60 s to be ready on a loaded machine (a clean-clone CI run on two cores, its e2e
    // shards beside it, took over 30 s to migrate a fresh database and boot), then the drain.
  }, 120_000);
});
