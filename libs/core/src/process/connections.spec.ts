import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sendDeclaredBody } from '@media/testing';
import { lingerOnClose, lingerReadingAtMost } from './connections';

const LIMIT = 64 * 1024;
const TAIL = 64 * 1024;
const LINGER_MS = 3_000;
/** Well past what a handler reads to see LIMIT passed (about 160 KiB, in the kernel's pieces). */
const PAST_LIMIT = 512 * 1024;

/**
 * A server that refuses a body over LIMIT with 413 as soon as it has read LIMIT bytes, the way the
 * gateway refuses an upload; `bounded` says whether it bounds what its lingering close still reads to TAIL.
 */
async function refusingServer(
  bounded: boolean,
): Promise<{ server: Server; sockets: Socket[]; port: number }> {
  const sockets: Socket[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= LIMIT) return;
      req.off('data', onData);
      if (bounded) lingerReadingAtMost(req, TAIL);
      res.writeHead(413, { connection: 'close', 'content-length': 9 }).end('too large');
    };
    req.on('data', onData);
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  lingerOnClose(server, { bytes: 32 * 1024 * 1024, ms: LINGER_MS });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sockets, port: (server.address() as AddressInfo).port };
}

describe('lingerOnClose', () => {
  it('reads no more than its bound of a longer body; the client still gets the answer', async () => {
    const { server, sockets, port } = await refusingServer(true);
    const answer = await sendDeclaredBody(port, 256 * 1024 * 1024);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // What the handler read to see the limit passed (a few of the kernel's reads), then nothing.
    expect(sockets[0].bytesRead).toBeLessThan(PAST_LIMIT);
  });

  it('reads on (and drops) the rest of a body without a bound, so a client still sending sees the answer', async () => {
    const { server, sockets, port } = await refusingServer(false);
    const answer = await sendDeclaredBody(port, 4 * 1024 * 1024);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sockets[0].bytesRead).toBeGreaterThan(PAST_LIMIT);
  });

  it('reads a body that ends within its bound to the end, and closes at once', async () => {
    const { server, port } = await refusingServer(true);
    const started = performance.now();
    const answer = await sendDeclaredBody(port, LIMIT + TAIL / 2);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // Closed by the end of the body, not by the linger time.
    expect(performance.now() - started).toBeLessThan(LINGER_MS);
  });
});
