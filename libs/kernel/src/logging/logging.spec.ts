import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { AppLogger } from './app-logger';
import { loggerOptions } from './logging';

type Handler = (
  req: IncomingMessage & { user?: { id: string } },
  res: ServerResponse,
  app: AppLogger,
) => void;

/** Runs one request through the access log with the platform's options and returns the lines written. */
async function logLines(handle: Handler, path = '/x') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const options = loggerOptions({ level: 'info' });
  const logger = new AppLogger('fixture', { ...options.logger, destination: sink });
  const middleware = logger.httpMiddleware(options.access);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    (req as IncomingMessage & { id: string }).id = 'req-1';
    middleware(req, res, () => {
      handle(req, res, logger);
      if (!res.writableEnded) res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).text();
  server.close();
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  return lines;
}

describe('request log lines (docs/api/contract.md §6)', () => {
  it('carries request_id once and user_id once the caller is known, on every line of the request', async () => {
    const lines = await logLines((req, _res, app) => {
      // What a service's `new Logger('Users').log(...)` does inside a request.
      app.log('inside the handler', 'Users');
      req.user = { id: 'user-7' };
    });
    const raw = lines.map((line) => JSON.stringify(line));
    expect(lines.map((l) => l.msg)).toEqual(['inside the handler', 'request completed']);
    for (const text of raw) expect(text.match(/"request_id"/g)).toHaveLength(1);
    expect(lines[0]).toMatchObject({ app: 'fixture', request_id: 'req-1', context: 'Users' });
    expect(lines[1]).toMatchObject({
      level: 30,
      app: 'fixture',
      request_id: 'req-1',
      req: { method: 'GET', url: '/x' },
      user_id: 'user-7',
      res: { status: 200 },
      latency_ms: expect.any(Number),
    });
    expect(raw[1].match(/"user_id"/g)).toHaveLength(1);
  });

  it('leaves user_id out when nobody is authenticated', async () => {
    const [line] = await logLines(() => undefined);
    expect(line).toMatchObject({ request_id: 'req-1', msg: 'request completed' });
    expect(line).not.toHaveProperty('user_id');
  });

  it('logs a 5xx answer at error level, with an err', async () => {
    const [line] = await logLines((_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    expect(line).toMatchObject({
      level: 50,
      request_id: 'req-1',
      res: { status: 503 },
      err: { message: 'failed with status code 503' },
      msg: 'request errored',
    });
  });

  it('writes no access line for the probes', async () => {
    expect(await logLines(() => undefined, '/fixture/health/live')).toEqual([]);
    expect(await logLines(() => undefined, '/fixture/health/ready')).toEqual([]);
  });
});
