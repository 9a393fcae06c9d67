/**
 * An app reached directly (an ingress may route to it, compose publishes its port) applies the
 * platform's HEADERS_TIMEOUT like the gateway: a client sending its headers one byte at a time
 * is answered 408 and cut. acl stands for every app (the timeouts are set by the platform's
 * createApp); this replica runs on the shared stack's acl database with a short timeout.
 */
import { connect } from 'node:net';
import { freePort, spawnDist, stack, waitReady, type DistProcess } from '@media/testing';

let replica: DistProcess;
let port: number;

beforeAll(async () => {
  port = await freePort();
  replica = spawnDist('acl', {
    ...stack().env,
    DATABASE_URL: stack().databases.acl,
    ACL_PORT: String(port),
    HEADERS_TIMEOUT: '1s',
  });
  await waitReady(`http://127.0.0.1:${port}/acl/health/live`, replica, 90_000);
}, 120_000);

afterAll(async () => {
  await replica?.stop();
});

it('cuts a connection that sends its headers one byte a second (slowloris) with 408', async () => {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write('GET /acl/health/live HTTP/1.1\r\nHost: x\r\n');
  const drip = setInterval(() => {
    if (!socket.destroyed) socket.write('X');
  }, 1_000);
  // Node's own default would keep it 60 s and more; with HEADERS_TIMEOUT=1s it is cut well before this deadline.
  const closed = await new Promise<boolean>((resolve) => {
    const deadline = setTimeout(() => resolve(false), 15_000);
    socket.once('close', () => {
      clearTimeout(deadline);
      resolve(true);
    });
  });
  clearInterval(drip);
  socket.destroy();
  expect(closed).toBe(true);
  expect(received).toMatch(/^HTTP\/1\.1 408 /);
});
