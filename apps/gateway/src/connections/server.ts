import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The public node:http server with the gateway's timeouts: HEADERS_TIMEOUT and REQUEST_TIMEOUT
 * checked by Node, and a connection that stays silent for IDLE_TIMEOUT (never a byte, or between
 * requests) closed; one with an answer under way is bounded by UPSTREAM_TIMEOUT instead.
 */
export function publicServer(
  timeouts: { headers: number; request: number; idle: number },
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headers,
      requestTimeout: timeouts.request,
      keepAliveTimeout: timeouts.idle,
      // Node checks the two timeouts above on this interval (30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, timeouts.headers / 4)),
    },
    onRequest,
  );
  server.timeout = timeouts.idle;
  server.on('timeout', (socket: Socket & { _httpMessage?: ServerResponse | null }) => {
    if (socket._httpMessage && !socket._httpMessage.writableFinished) return;
    socket.destroy();
  });
  return server;
}
