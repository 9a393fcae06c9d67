/**
 * Draining with websockets open (SIGTERM): chat-notifications sends every socket a close frame
 * 1001 ("going away", so clients reconnect to another replica) and exits 0; the gateway relays
 * a 1001 to its tunnels too. Each runs as a process of the test's own on the shared stack.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort, spawnDist, waitReady } from '@media/testing';
import { closeNats, connectWs, startReplica, system, user, type Client } from './support';

afterAll(async () => {
  await closeNats();
});

/** Resolves with the close code the client saw, or `undefined` when none came before `ms`. */
function closeCode(client: Client, ms = 30_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => resolve(undefined), ms);
    client.socket.once('close', (code: number) => {
      clearTimeout(deadline);
      resolve(code);
    });
  });
}

/** Resolves with the exit code (a signal's name when killed), or `undefined` when still running after `ms`. */
function exitOf(child: ChildProcess, ms = 30_000): Promise<number | string | undefined> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const deadline = setTimeout(() => resolve(undefined), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve(code ?? signal ?? undefined);
    });
  });
}

it('chat-notifications closes every websocket with 1001 on SIGTERM and exits 0', async () => {
  const replica = await startReplica();
  try {
    const [first, second] = [await user(), await user()];
    const clients = [
      await connectWs({ base: replica.url, token: first.token }),
      await connectWs({ base: replica.url, token: second.token }),
    ];
    const codes = Promise.all(clients.map((client) => closeCode(client)));
    const exit = exitOf(replica.process.child);
    replica.process.child.kill('SIGTERM');
    expect(await codes).toEqual([1001, 1001]);
    expect(await exit).toBe(0);
  } finally {
    await replica.stop();
  }
}, 120_000);

it('the gateway relays a 1001 to its websocket tunnels on SIGTERM and exits 0', async () => {
  const port = await freePort();
  const gateway = spawnDist('gateway', {
    ...system().env,
    GATEWAY_PORT: String(port),
    GATEWAY_METRICS_PORT: '0',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/health/live`, gateway, 60_000);
    const me = await user();
    const client = await connectWs({ base, token: me.token });
    const code = closeCode(client);
    const exit = exitOf(gateway.child);
    gateway.child.kill('SIGTERM');
    expect(await code).toBe(1001);
    expect(await exit).toBe(0);
  } finally {
    await gateway.stop();
  }
}, 120_000);
