import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sendContent } from './send-content';

/** A stand-in for a storage driver's read stream: `chunks` of 64 KiB, then `end` (or forever). */
function storedFile(chunks: number, end: 'fail' | 'never'): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent < chunks) {
        sent++;
        this.push(Buffer.alloc(65_536, 1));
      } else if (end === 'fail') this.destroy(Object.assign(new Error('read EIO'), { code: 'EIO' }));
    },
  });
}

describe('sendContent (real HTTP, a stand-in storage stream)', () => {
  let server: Server;
  let source: () => Readable;
  let done: Promise<Error[]>;

  beforeEach(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(100 * 65_536) });
      const failures: Error[] = [];
      done = sendContent(source(), res, (error) => failures.push(error)).then(() => failures);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  it('reports a storage failure mid-download and cuts the answer short', async () => {
    source = () => storedFile(3, 'fail');
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(url(), (res) => {
        res.on('error', () => undefined); // the reset is the point: asserted below
        resolve(res);
      }),
    );
    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    await new Promise((resolve) => response.on('close', resolve));
    expect(response.complete).toBe(false);
    expect(received).toBeLessThan(100 * 65_536);
    expect((await done).map((error) => error.message)).toEqual(['read EIO']);
  });

  it('reports nothing when the client goes away mid-download', async () => {
    source = () => storedFile(Number.POSITIVE_INFINITY, 'never');
    const response = await new Promise<IncomingMessage>((resolve) => get(url(), resolve));
    await once(response, 'data');
    response.destroy();
    expect(await done).toEqual([]);
  });
});
