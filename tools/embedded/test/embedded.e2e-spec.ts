import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { envPrefix, type AppName } from '@media/contracts';
import { cleanEnv, freePorts, makeWorkDir, pathWithoutNats, stopLeftoverPostgres } from './support';

/**
 * The embedded default as a user runs it ("The two ways to run it"): the built runner
 * as a child process, with no DATABASE_URL or NATS_URL, on ports of its own so it clashes with
 * nothing on this machine. Needs `npm run build` first (npm test does it).
 */
const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'dist', 'tools', 'embedded', 'src', 'main.js');

/**
 * A bound, not a wait: a start takes seconds, but a CI run at load 23 (the container test's first
 * image build beside three Jest runs) took 53 s to load the apps and 100 s to create the cluster.
 */
const START_TIMEOUT = 240_000;
const STOP_TIMEOUT = 60_000;

interface Runner {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

function startRunner(
  dataDir: string,
  ports: Record<AppName, number>,
  extra: Record<string, string> = {},
): Runner {
  const env: Record<string, string> = {
    ...cleanEnv(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The gateway's /metrics on a port the system picks (9464 may be another run's).
    GATEWAY_METRICS_PORT: '0',
    ...extra,
  };
  for (const app of Object.keys(ports) as AppName[]) env[`${envPrefix(app)}_PORT`] = String(ports[app]);
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.pipe(createWriteStream(join(dataDir, '..', 'runner.stdout.log'), { flags: 'a' }));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stderr: () => stderr, exited };
}

async function waitReady(runner: Runner, gatewayPort: number): Promise<void> {
  const url = `http://127.0.0.1:${gatewayPort}/health/ready`;
  const deadline = Date.now() + START_TIMEOUT - 5_000;
  let last = '';
  while (Date.now() < deadline) {
    if (runner.child.exitCode !== null)
      throw new Error(`runner exited with ${runner.child.exitCode}:\n${runner.stderr()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready (${last}):\n${runner.stderr()}`);
}

/** SIGINT, as Ctrl-C sends it; resolves with the exit code. */
async function stopRunner(runner: Runner): Promise<number | null> {
  if (runner.child.exitCode !== null) return runner.child.exitCode;
  runner.child.kill('SIGINT');
  const timer = setTimeout(() => runner.child.kill('SIGKILL'), STOP_TIMEOUT - 5_000);
  try {
    return await runner.exited;
  } finally {
    clearTimeout(timer);
  }
}

function storedAdmin(dataDir: string): { email: string; password: string } {
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
    adminEmail: string;
    adminPassword: string;
  };
  return { email: secrets.adminEmail, password: secrets.adminPassword };
}

/** Logs in through the gateway and reads the caller's profile, as the contract's §1 describes. */
async function loginAndReadProfile(
  gatewayPort: number,
  admin: { email: string; password: string },
): Promise<{ email: string }> {
  const base = `http://127.0.0.1:${gatewayPort}`;
  const token = await fetch(`${base}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const tokenBody = (await token.json()) as { access_token?: string; token_type?: string };
  expect({ status: token.status, token_type: tokenBody.token_type }).toEqual({
    status: 200,
    token_type: 'Bearer',
  });
  const me = await fetch(`${base}/acl/api/v1/users/me`, {
    headers: { authorization: `Bearer ${tokenBody.access_token}` },
  });
  expect(me.status).toBe(200);
  return (await me.json()) as { email: string };
}

describe('npm start (embedded default)', () => {
  const workDirs: string[] = [];
  const runners: Runner[] = [];

  afterAll(async () => {
    for (const runner of runners) if (runner.child.exitCode === null) await stopRunner(runner);
    for (const work of workDirs) {
      stopLeftoverPostgres(join(work, 'data'));
      rmSync(work, { recursive: true, force: true });
    }
  }, STOP_TIMEOUT);

  it(
    'starts everything with its own PostgreSQL and nats-server, lets the admin log in, and keeps the data across a restart',
    async () => {
      const work = makeWorkDir();
      workDirs.push(work);
      const dataDir = join(work, 'data');
      const ports = await freePorts();

      const first = startRunner(dataDir, ports);
      runners.push(first);
      await waitReady(first, ports.gateway);
      const admin = storedAdmin(dataDir);
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      // The generated password is printed once, with the warning, on the first start only.
      expect(first.stderr()).toContain(admin.password);
      expect(first.stderr()).toMatch(/WARNING/);
      expect(first.stderr()).toMatch(/NATS: started .*nats-server/);
      expect(first.stderr()).toContain(`http://localhost:${ports.gateway}/docs`);
      await expect(loginAndReadProfile(ports.gateway, admin)).resolves.toMatchObject({ email: admin.email });
      // Every start says where the administrator's password is, before anything can fail.
      expect(first.stderr()).toContain(`administrator ${admin.email}: password in`);
      const { postgres, gateway_url, nats_url } = JSON.parse(
        readFileSync(join(dataDir, 'embedded.json'), 'utf8'),
      ) as { postgres: { port: number }; gateway_url?: string; nats_url?: string };
      // Where the running system is, for `npm run demo` and the NATS CLI.
      expect(gateway_url).toBe(`http://127.0.0.1:${ports.gateway}`);
      expect(nats_url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
      expect(await stopRunner(first)).toBe(0);
      expect(JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8'))).not.toHaveProperty(
        'gateway_url',
      );
      expect(first.stderr()).toMatch(/\[embedded\] stopped\n/);
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

      const second = startRunner(dataDir, ports);
      runners.push(second);
      await waitReady(second, ports.gateway);
      expect(second.stderr()).not.toContain(admin.password);
      expect(second.stderr()).toContain(`${admin.email}  (password in`);
      expect(second.stderr()).not.toMatch(/initialising a new cluster/);
      await expect(loginAndReadProfile(ports.gateway, admin)).resolves.toMatchObject({ email: admin.email });
      const reused = JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8')) as {
        postgres: { port: number };
      };
      expect(reused.postgres.port).toBe(postgres.port);
      expect(await stopRunner(second)).toBe(0);
    },
    2 * START_TIMEOUT + 2 * STOP_TIMEOUT,
  );

  it(
    'starts from a directory the postgres user cannot enter (mktemp -d, 0700) without opening it',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'embedded-e2e-private-'));
      workDirs.push(work);
      expect(statSync(work).mode & 0o777).toBe(0o700);
      const dataDir = join(work, 'data');
      const ports = await freePorts();
      const runner = startRunner(dataDir, ports);
      runners.push(runner);
      try {
        await waitReady(runner, ports.gateway);
        await expect(loginAndReadProfile(ports.gateway, storedAdmin(dataDir))).resolves.toMatchObject({
          email: storedAdmin(dataDir).email,
        });
        expect(statSync(work).mode & 0o777).toBe(0o700);
        if (process.getuid?.() === 0) {
          expect(runner.stderr()).toMatch(/cannot enter .*: running its .*cluster from /);
          expect(existsSync(join(dataDir, 'postgres-location'))).toBe(true);
        }
        expect(await stopRunner(runner)).toBe(0);
      } finally {
        const location = join(dataDir, 'postgres-location');
        if (existsSync(location)) {
          const cluster = readFileSync(location, 'utf8').trim();
          stopLeftoverPostgres(dirname(cluster), cluster);
          rmSync(dirname(cluster), { recursive: true, force: true });
        }
      }
    },
    START_TIMEOUT + STOP_TIMEOUT,
  );

  it(
    'uses the in-process bus when no nats-server is on PATH',
    async () => {
      const work = makeWorkDir();
      workDirs.push(work);
      const dataDir = join(work, 'data');
      const ports = await freePorts();

      const runner = startRunner(dataDir, ports, { PATH: pathWithoutNats(process.env.PATH ?? '') });
      runners.push(runner);
      await waitReady(runner, ports.gateway);
      expect(runner.stderr()).toMatch(/no nats-server on PATH; using the in-process bus/);
      await expect(loginAndReadProfile(ports.gateway, storedAdmin(dataDir))).resolves.toMatchObject({
        email: storedAdmin(dataDir).email,
      });
      expect(await stopRunner(runner)).toBe(0);
    },
    START_TIMEOUT + STOP_TIMEOUT,
  );
});
