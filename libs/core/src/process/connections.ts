import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { InFlight } from './in-flight';

/** How much of an unread request body is still read (and dropped) after an early answer. */
export interface LingerOptions {
  /** Bytes read at most before the connection is closed anyway. */
  bytes: number;
  /** Milliseconds waited at most before the connection is closed anyway. */
  ms: number;
}

export interface HttpConnections {
  /**
   * Graceful drain (SIGTERM): stop accepting, close idle keep-alive connections, answer every
   * request still in flight (and any that arrives on an open connection meanwhile) with
   * `Connection: close`, and resolve once none is left or `timeoutMs` passed (then the rest are
   * cut). `beforeWait` runs first (the app's drain hooks: websockets closed with 1001), bounded by
   * the same deadline; any connection still open at the deadline, upgraded ones included, is
   * destroyed, so a drain always ends. Resolves with the number of requests cut.
   */
  drain(timeoutMs: number, beforeWait?: () => Promise<void>): Promise<number>;
  /** True once drain() was called (readiness answers 503 from then on). */
  readonly draining: boolean;
}

const CURRENT = Symbol('current-request');
const READ_AT_MOST = Symbol('read-at-most');

/**
 * Bounds what the lingering close of `req`'s connection still reads of its body to `bytes` (a
 * request refused over its body limit, docs/api/contract.md §2: 413 "after reading at most the
 * limit"): a body that ends within them is read to its end and the connection closed at once;
 * past them nothing more is read, and the connection is closed when the linger time ends (the
 * answer and a FIN are out; the unread rest waits in the kernel's buffer, not read, not parsed).
 */
export function lingerReadingAtMost(req: IncomingMessage, bytes: number): void {
  (req as Bounded)[READ_AT_MOST] = bytes;
}

type Bounded = IncomingMessage & { [READ_AT_MOST]?: number };

/**
 * Stops accepting connections without closing idle keep-alive ones at once, as `server.close()`
 * does since Node 19: a client may have sent its next request on one this very moment and would
 * see a reset. Resolves once every connection is gone.
 */
export function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // net.Server's close: stop listening, call back when the last connection ends.
    Object.getPrototypeOf(Object.getPrototypeOf(server)).close.call(server, () => resolve());
  });
}

/**
 * How long idle keep-alive connections are kept after a shutdown began: a request arriving on
 * one meanwhile is answered with `Connection: close` (clean for the client); then they are closed.
 */
export function keepAliveGrace(timeoutMs: number): number {
  return Math.min(1_000, Math.floor(timeoutMs / 4));
}
type TrackedSocket = Socket & { [CURRENT]?: IncomingMessage };

/** Waits for `work`, at most `ms`. */
function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.catch(() => undefined), limit]).finally(() => clearTimeout(timer));
}

/**
 * Connection lifecycle of an app's HTTP server: graceful drain on shutdown, and a lingering
 * close. Node closes a `Connection: close` answer's socket as soon as the answer is written;
 * with request bytes still arriving the kernel then sends a reset, and a client (or the
 * gateway) that is still sending may lose the answer itself (docs/api/contract.md §2: "so the client sees
 * the status"). Instead the write side is closed first and the rest of the body read and
 * dropped, at most `linger.bytes` or `linger.ms`, before the socket is destroyed.
 */
export function manageConnections(server: Server, linger: LingerOptions): HttpConnections {
  const active = new InFlight<ServerResponse>();
  let draining = false;
  let lastActivity = 0;
  const sockets = new InFlight<Socket>();

  lingerOnClose(server, linger);
  server.on('connection', (socket: Socket) => {
    const slot = sockets.add(socket);
    socket.once('close', () => sockets.delete(slot, socket));
  });
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    const slot = active.add(res);
    if (draining) {
      res.shouldKeepAlive = false;
      lastActivity = Date.now();
    }
    res.once('close', () => {
      active.delete(slot, res);
      lastActivity = Date.now();
    });
  });

  return {
    get draining() {
      return draining;
    },
    async drain(timeoutMs: number, beforeWait?: () => Promise<void>): Promise<number> {
      draining = true;
      const deadline = Date.now() + timeoutMs;
      const closed = stopAccepting(server);
      for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      if (beforeWait) await within(beforeWait(), timeoutMs);
      // Busy connections close after their answer; a keep-alive one whose answer went out before
      // may get one more request, answered with Connection: close; only connections idle for
      // the whole grace are cut, so a client that sent a request just now sees no reset.
      const grace = keepAliveGrace(timeoutMs);
      while (Date.now() < deadline && sockets.size > 0) {
        if (active.size === 0 && Date.now() - lastActivity >= grace) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const cut = active.size;
      server.closeAllConnections();
      // Upgraded connections are no longer the HTTP server's: whatever the hooks left open goes now.
      for (const socket of sockets) socket.destroy();
      await closed;
      return cut;
    },
  };
}

/**
 * Makes `server` close a connection whose request body is still arriving by half-closing it and
 * reading (and dropping) the rest, bounded by `linger`, instead of destroying it at once.
 */
export function lingerOnClose(server: Server, linger: LingerOptions): void {
  server.prependListener('request', (req: IncomingMessage) => {
    (req.socket as TrackedSocket)[CURRENT] = req;
  });
  server.on('connection', (socket: TrackedSocket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const req = socket[CURRENT];
      if (!req || req.complete || socket.destroyed) return destroySoon();
      lingeringClose(socket, req, linger);
    };
  });
}

function lingeringClose(socket: Socket, req: IncomingMessage, linger: LingerOptions): void {
  const bound = Math.min(linger.bytes, (req as Bounded)[READ_AT_MOST] ?? Number.POSITIVE_INFINITY);
  let seen = 0;
  const done = () => {
    clearTimeout(timer);
    socket.off('data', onData);
    socket.destroy();
  };
  const stopReading = () => {
    socket.off('data', onData);
    req.pause();
    socket.pause();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= bound) return;
    // Over the general bound: closed now. Over a refused body's own bound: read no more, and
    // closed when the linger time ends, so that the client has read its answer by then.
    if (bound < linger.bytes) stopReading();
    else done();
  };
  const timer = setTimeout(done, linger.ms);
  timer.unref();
  socket.on('data', onData);
  socket.once('close', () => clearTimeout(timer));
  req.once('end', done);
  // Half-close: the answer and a FIN go out, the client's remaining bytes are still read.
  socket.end();
  req.resume();
}
