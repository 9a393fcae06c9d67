/** A nats-server of a test's own, so that no app on the shared NATS answers its requests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './poll';
import { freePort } from './ports';

export interface PrivateNats {
  url: string;
  /** The server's process id (a bench samples its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export interface NatsOptions {
  /** The port (default: a free one); a test that stops its server and starts it again passes the first one's. */
  port?: number;
  /** The JetStream store (default: a directory of its own, removed at stop); one passed here is kept. */
  storeDir?: string;
}

/** A nats-server with JetStream on a free loopback port, for this test file only. */
export async function startNats(options: NatsOptions = {}): Promise<PrivateNats> {
  const port = options.port ?? (await freePort());
  const dir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'media-nats-'));
  const child: ChildProcess = spawn(
    'nats-server',
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir],
    {
      stdio: 'ignore',
    },
  );
  const up = await eventually(
    async () => child.exitCode === null && (await portOpen(port)),
    (open) => open || child.exitCode !== null,
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  if (!up) throw new Error('nats-server did not start');
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => {
          if (!options.storeDir) rmSync(dir, { recursive: true, force: true });
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
