/**
 * A nats-server of a run's own (JetStream in a temporary directory) on a free loopback port:
 * apps on one NATS answer each other's requests (queue groups), so a test run or a benchmark run
 * keeps its apps apart from everything else on the machine's NATS this way. `nats-server` must be
 * on PATH. Used by scripts/test.mjs and bench/run.mjs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A port nothing listens on right now (the OS picks it), as libs/testing's freePort. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server; `stop()` ends it and removes its directory. */
export async function startNats() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'media-nats-'));
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let waited = 0; !(await portOpen(port)); waited += 50) {
    if (waited > 10_000 || child.exitCode !== null) throw new Error('nats-server did not start');
    await delay(50);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
