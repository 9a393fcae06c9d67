import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { lingerOnClose, PayloadTooLarge } from '@media/core';
import { sendDeclaredBody } from '@media/testing';
import { refuseUpload } from './errors';

/** The refused body's own budget: what is still read of a body that may end soon after it. */
const BUDGET = 512 * 1024;

/** A server that refuses every body at once with 413, as the gateway does over a limit. */
async function refusingServer(): Promise<{ server: Server; sockets: Socket[]; port: number }> {
  const sockets: Socket[] = [];
  const server = createServer((req, res) => refuseUpload(req, res, new PayloadTooLarge(BUDGET), BUDGET));
  server.on('connection', (socket: Socket) => sockets.push(socket));
  lingerOnClose(server, { bytes: 32 * 1024 * 1024, ms: 2_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sockets, port: (server.address() as AddressInfo).port };
}

describe('refuseUpload', () => {
  it('reads none of a body declared longer than its budget and the tail; the client still gets the 413', async () => {
    const { server, sockets, port } = await refusingServer();
    const answer = await sendDeclaredBody(port, 4 * 1024 * 1024);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // At most what the parser had in hand with the head (the kernel's first reads), far below
    // the budget it would read of a body that might end within it.
    expect(sockets[0].bytesRead).toBeLessThan(BUDGET / 2);
  });

  it('reads a body declared just over its budget to the end, and closes at once', async () => {
    const { server, sockets, port } = await refusingServer();
    const size = BUDGET + 16 * 1024;
    const answer = await sendDeclaredBody(port, size);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sockets[0].bytesRead).toBeGreaterThanOrEqual(size);
  });
});
