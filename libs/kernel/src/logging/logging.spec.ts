import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp, type Options } from 'pino-http';
import { loggerOptions } from './logging';

/** Runs one request through pino-http with the platform's options and returns the lines written. */
async function logLines(handle: (req: IncomingMessage & { log: { info(msg: string): void } }) => void) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pinoHttp(loggerOptions('fixture', { level: 'info' }).pinoHttp as Options, sink);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    (req as IncomingMessage & { id: string }).id = 'req-1';
    logger(req, res);
    handle(req as IncomingMessage & { log: { info(msg: string): void } });
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`)).text();
  server.close();
  await new Promise((r) => setImmediate(r));
  return lines;
}

describe('request log lines (docs/api/contract.md §6)', () => {
  it('carries request_id once and user_id once the caller is known, on every line of the request', async () => {
    const lines = await logLines((req) => {
      req.log.info('inside the handler');
      (req as unknown as { user: { id: string } }).user = { id: 'user-7' };
    });
    const raw = lines.map((line) => JSON.stringify(line));
    expect(lines.map((l) => l.msg)).toEqual(['inside the handler', 'request completed']);
    for (const text of raw) expect(text.match(/"request_id"/g)).toHaveLength(1);
    expect(lines[0]).toMatchObject({ app: 'fixture', request_id: 'req-1' });
    expect(lines[1]).toMatchObject({ request_id: 'req-1', user_id: 'user-7', res: { status: 200 } });
    expect(raw[1].match(/"user_id"/g)).toHaveLength(1);
  });

  it('leaves user_id out when nobody is authenticated', async () => {
    const [line] = await logLines(() => undefined);
    expect(line).toMatchObject({ request_id: 'req-1', msg: 'request completed' });
    expect(line).not.toHaveProperty('user_id');
  });
});
