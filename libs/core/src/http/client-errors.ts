import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError } from '../errors/domain-errors';

/** Node's own answers to what its parser refuses, in the contract's shape (docs/api/contract.md §2). */
export function parserError(error: NodeJS.ErrnoException): DomainError | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DomainError(431, 'request_header_fields_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DomainError(408, 'request_timeout', 'The request was not received in time.');
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    default:
      return error.code?.startsWith('HPE_')
        ? new DomainError(400, 'bad_request', 'The request is not valid HTTP/1.1.')
        : undefined;
  }
}

/** Writes a whole error answer on a raw socket (no request object: parser errors, refused upgrades) and closes it. */
export function writeSocketError(
  socket: Duplex,
  error: DomainError,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): void {
  const payload = JSON.stringify({ detail: error.detail, code: error.code });
  const headers = {
    ...extraHeaders,
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(payload)),
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${lines.join('')}\r\n${payload}`,
  );
}

/**
 * Answers what Node's parser refuses (bad framing, oversized headers, timeouts) in the contract's
 * shape instead of Node's bare status line; a connection already answering or gone is cut.
 */
export function answerClientErrors(server: Server, extraHeaders: Record<string, string> = {}): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = parserError(error);
    const message = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!answer || !socket.writable || message?.headersSent) {
      socket.destroy();
      return;
    }
    writeSocketError(socket, answer, randomUUID(), extraHeaders);
  });
}
