/**
 * Clients that send one body in a loop, from a child process of their own: the flood has its own
 * event loop, so the process that measures latency beside it (health probes, say) is not delayed
 * by the flood's sending. With `nice` (default 19, the lowest priority) the flood's own CPU — a
 * client writing a megabyte per request as fast as it can — yields to the stack's processes: on
 * the internet the flooding clients are other machines, and what a benchmark on one machine should
 * see is what the server side does under the flood, not the attacker's share of the same cores.
 *
 *   const flood = await startFlood({ url, body, headers, clients: 3 });
 *   ... measure ...
 *   const sent = await flood.stop(); // [{ status, ms }] of every request answered
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

export async function startFlood({ url, body, headers = {}, clients = 3, timeoutMs = 60_000, nice = 19 }) {
  const child = fork(fileURLToPath(import.meta.url), ['--flood'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  setPriority(child.pid, nice);
  const done = new Promise((resolve, reject) => {
    child.on('message', (message) => message.sent && resolve(message.sent));
    child.once('exit', (code) => reject(new Error(`the flood process exited (${code}) before it reported`)));
  });
  const started = new Promise((resolve) => child.on('message', (message) => message.started && resolve()));
  child.send({ url, body, headers, clients, timeoutMs });
  await started;
  return {
    async stop() {
      child.send('stop');
      const sent = await done;
      child.kill();
      return sent;
    },
  };
}

async function send({ url, body, headers, timeoutMs }) {
  const start = performance.now();
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - start };
  } catch {
    return { status: 0, ms: performance.now() - start };
  }
}

if (process.argv[2] === '--flood') {
  process.once('message', async (options) => {
    const sent = [];
    let running = true;
    process.once('message', () => {
      running = false;
    });
    process.send({ started: true });
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (running) sent.push(await send(options));
      }),
    );
    process.send({ sent });
  });
}
