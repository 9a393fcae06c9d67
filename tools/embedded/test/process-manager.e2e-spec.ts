import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { envPrefix, type AppName } from '@media/contracts';
import { eventually } from '@media/testing';
import { cleanEnv, freePorts, makeWorkDir, stopLeftoverPostgres } from './support';

/**
 * `npm start` under a process manager: SIGTERM to the npm process stops everything
 * the runner started, and the runner stops when its parent dies without passing a signal on.
 */
const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'dist', 'tools', 'embedded', 'src', 'main.js');
/** One of the outputs a rebuild replaces, and the record of the last build. */
const APP_MAIN = join(ROOT, 'dist', 'apps', 'content', 'src', 'main.js');
const STAMP = join(ROOT, 'dist', '.build-stamp');
const START_TIMEOUT = 150_000;
const STOP_TIMEOUT = 60_000;

interface Started {
  child: ChildProcess;
  stderr(): string;
  dataDir: string;
  ports: Record<AppName, number>;
}

const started: Started[] = [];
const works: string[] = [];

function environment(dataDir: string, ports: Record<AppName, number>): Record<string, string> {
  const env: Record<string, string> = {
    ...cleanEnv(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    GATEWAY_METRICS_PORT: '0',
  };
  for (const app of Object.keys(ports) as AppName[]) env[`${envPrefix(app)}_PORT`] = String(ports[app]);
  return env;
}

async function launch(command: string, args: string[]): Promise<Started> {
  const work = makeWorkDir();
  works.push(work);
  const dataDir = join(work, 'data');
  const ports = await freePorts();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: environment(dataDir, ports),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const run = { child, stderr: () => stderr, dataDir, ports };
  started.push(run);
  const ready = await eventually(
    () =>
      fetch(`http://127.0.0.1:${ports.gateway}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
        (res) => res.status,
        () => 0,
      ),
    (status) => status === 200 || child.exitCode !== null,
    START_TIMEOUT - 10_000,
  );
  if (ready !== 200) throw new Error(`not ready (${ready}):\n${stderr}`);
  return run;
}

/** The runner, its PostgreSQL and its nats-server, by pid. */
function pidsOf(dataDir: string): { runner: number; postgres: number; nats: number } {
  const state = JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8')) as { nats: { pid: number } };
  return {
    runner: Number(readFileSync(join(dataDir, 'embedded.lock'), 'utf8').trim()),
    postgres: Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
    nats: state.nats.pid,
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Still running after the deadline: the names of what is left. */
async function leftAfterStop(pids: Record<string, number>, gatewayPort: number): Promise<string[]> {
  return eventually(
    async () => [
      ...Object.entries(pids)
        .filter(([, pid]) => alive(pid))
        .map(([name]) => name),
      ...((await listening(gatewayPort)) ? ['gateway port'] : []),
    ],
    (left) => left.length === 0,
    STOP_TIMEOUT - 10_000,
  );
}

afterAll(async () => {
  for (const run of started) {
    try {
      const { runner } = pidsOf(run.dataDir);
      if (alive(runner)) process.kill(runner, 'SIGINT');
      await eventually(
        async () => alive(runner),
        (up) => !up,
        30_000,
      );
    } catch {
      /* never started */
    }
    stopLeftoverPostgres(run.dataDir);
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
  }
  for (const work of works) rmSync(work, { recursive: true, force: true });
}, STOP_TIMEOUT);

it(
  'SIGTERM to the `npm start` process stops the runner, PostgreSQL, nats-server and the apps',
  async () => {
    // After `npm run build`, `npm start` builds nothing: a rebuild (an Nx cache hit deletes and
    // rewrites every output) would pull dist/ from under the stacks of the runs beside this one.
    // A build writes a new stamp (scripts/build-if-stale.mjs); a cache restore, new files too.
    const built = { stamp: statSync(STAMP).mtimeMs, output: statSync(APP_MAIN).ino };
    const run = await launch('npm', ['start', '--silent']);
    expect({ stamp: statSync(STAMP).mtimeMs, output: statSync(APP_MAIN).ino }).toEqual(built);
    const pids = pidsOf(run.dataDir);
    run.child.kill('SIGTERM');
    expect(await leftAfterStop(pids, run.ports.gateway)).toEqual([]);
    expect(run.stderr()).toMatch(/\[embedded\] SIGTERM: stopping/);
    expect(run.stderr()).toMatch(/\[embedded\] stopped\n/);
  },
  START_TIMEOUT + STOP_TIMEOUT,
);

it(
  'stops everything when its parent dies without passing a signal on (SIGKILL)',
  async () => {
    // A parent that starts the runner and is then killed outright, as a crashed supervisor.
    const parent = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(MAIN)}], { stdio: 'inherit' }); setInterval(() => {}, 60000);`;
    const run = await launch(process.execPath, ['-e', parent]);
    const pids = pidsOf(run.dataDir);
    run.child.kill('SIGKILL');
    expect(await leftAfterStop(pids, run.ports.gateway)).toEqual([]);
    expect(run.stderr()).toMatch(/parent process \d+ exited: stopping everything/);
  },
  START_TIMEOUT + STOP_TIMEOUT,
);
