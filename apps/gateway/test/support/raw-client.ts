/**
 * A client on a bare TCP socket, so tests control exactly what is sent and when (keep-alive
 * reuse, bodies still being sent while the answer arrives, slow headers, silence) and see exactly
 * what comes back (an answer, a clean close, or a reset).
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** Set when the socket closed; `reset` when it ended with an error (ECONNRESET, EPIPE). */
  closed = false;
  error?: NodeJS.ErrnoException;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error ??= error;
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  private next(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Writes, swallowing errors (the socket's own `error` records them). */
  write(data: string | Buffer): Promise<void> {
    if (this.socket.destroyed || this.socket.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.socket.write(data, () => resolve())) return;
      this.socket.once('drain', resolve);
      this.socket.once('close', resolve);
    });
  }

  /** Reads one answer (Content-Length or chunked framing); throws on close before a whole one. */
  async read(timeoutMs = 10_000): Promise<RawAnswer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = this.parse();
      if (answer) return answer;
      if (this.closed)
        throw new Error(`connection closed before an answer (${this.error?.code ?? 'clean close'})`);
      await this.next(Math.max(1, deadline - Date.now()));
    }
  }

  /** Resolves once the socket is closed (true) or the time is up (false). */
  async waitClosed(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) {
      await this.next(Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
    return this.closed;
  }

  private parse(): RawAnswer | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(head[0].split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = this.buffer.subarray(end + 4);
    if (status < 200) {
      this.buffer = rest;
      return this.parse();
    }
    if (headers['transfer-encoding'] === 'chunked') {
      let offset = 0;
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', offset);
        if (lineEnd === -1) return undefined;
        const size = parseInt(rest.subarray(offset, lineEnd).toString(), 16);
        if (rest.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        offset = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      this.buffer = rest.subarray(offset);
      return { status, headers, body: Buffer.concat(parts).toString() };
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < length) return undefined;
    this.buffer = rest.subarray(length);
    return { status, headers, body: rest.subarray(0, length).toString() };
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A request head; the body (if any) is written by the caller. */
export function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Writes `total` bytes of body in 64 KiB pieces (chunked framing when asked), stopping early once `stop()` holds. */
export async function sendBody(
  connection: RawConnection,
  total: number,
  options: { chunked?: boolean; stop?: () => boolean } = {},
): Promise<number> {
  const piece = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  while (sent < total && !(options.stop?.() ?? false) && !connection.closed) {
    const size = Math.min(piece.length, total - sent);
    const data = piece.subarray(0, size);
    await connection.write(
      options.chunked
        ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')])
        : data,
    );
    sent += size;
  }
  if (options.chunked && sent >= total) await connection.write('0\r\n\r\n');
  return sent;
}

/**
 * POSTs a body of `size` bytes to `path`, reading the answer while still sending (the gateway may
 * answer before the body is complete) and sending no more once it has.
 */
export async function postBody(
  connection: RawConnection,
  path: string,
  size: number,
  headers: Record<string, string | number>,
  chunked = false,
): Promise<RawAnswer> {
  await connection.write(head('POST', path, headers));
  let answered = false;
  const answer = connection.read(10_000).then((a) => ((answered = true), a));
  const sending = sendBody(connection, size, { chunked, stop: () => answered });
  const result = await answer;
  await sending;
  return result;
}

/**
 * Writes `requestHead`, then `chunk` every `everyMs` until the answer comes, the connection closes
 * or `timeoutMs` have passed; returns the answer.
 */
export async function trickle(
  connection: RawConnection,
  requestHead: string,
  chunk: string,
  { everyMs = 100, timeoutMs }: { everyMs?: number; timeoutMs: number },
): Promise<RawAnswer> {
  const started = Date.now();
  await connection.write(requestHead);
  let answered = false;
  const answer = connection.read(timeoutMs).then((a) => ((answered = true), a));
  while (!answered && !connection.closed && Date.now() - started < timeoutMs) {
    await connection.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return answer;
}

/** The contract's error body (docs/api/contract.md §2) with `code`. */
export function expectContractError(answer: { body: string }, code: string): void {
  expect(JSON.parse(answer.body)).toEqual({ detail: expect.any(String), code });
}

/** A 413 in the contract's shape. */
export function expectTooLarge(answer: RawAnswer): void {
  expect(answer.status).toBe(413);
  expectContractError(answer, 'payload_too_large');
}

/**
 * POSTs an anonymous 40 MB chunked multipart body to a route that takes no multipart and checks
 * the early 415: in the contract's shape, within seconds, and the connection then closed (the
 * answer says so) rather than left to hang.
 */
export async function expectEarly415(port: number, path: string): Promise<void> {
  const connection = await RawConnection.open(port);
  const started = Date.now();
  const answer = await postBody(
    connection,
    path,
    40 * 1024 * 1024,
    { 'content-type': 'multipart/form-data; boundary=xyz', 'transfer-encoding': 'chunked' },
    true,
  );
  expect(answer.status).toBe(415);
  expectContractError(answer, 'unsupported_media_type');
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(answer.headers.connection).toBe('close');
  expect(await connection.waitClosed(5_000)).toBe(true);
  connection.destroy();
}
