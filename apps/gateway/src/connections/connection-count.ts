import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UpstreamUnavailable } from '@media/core';
import { writeSocketError } from '../proxy/errors';

/** Takes a socket out of the HTTP connection count (once). */
const UNCOUNT = Symbol('uncount');
type Counted = Socket & { [UNCOUNT]?: () => void };

/**
 * Open HTTP connections (MAX_CONNECTIONS) and websocket tunnels (MAX_WEBSOCKETS), counted
 * apart: an upgraded connection leaves the HTTP count when its tunnel opens.
 */
export class ConnectionCount {
  http = 0;
  websockets = 0;

  constructor(private readonly limits: { maxConnections: number; maxWebsockets: number }) {}

  /** The server's `connection` listener: one connection over MAX_CONNECTIONS is answered 503 and closed at once. */
  readonly onConnection = (socket: Socket): void => {
    if (this.http >= this.limits.maxConnections) {
      const error = new UpstreamUnavailable('The gateway is at its connection limit; retry shortly.');
      socket.on('error', () => socket.destroy());
      writeSocketError(socket, error, '');
      return;
    }
    this.http += 1;
    let counted = true;
    (socket as Counted)[UNCOUNT] = () => {
      if (counted) this.http -= 1;
      counted = false;
    };
    socket.once('close', () => (socket as Counted)[UNCOUNT]?.());
  };

  /** Whether one more websocket is allowed. */
  websocketRoom(): boolean {
    return this.websockets < this.limits.maxWebsockets;
  }

  /** Counts an open tunnel as a websocket (no longer HTTP) until either side closes; `onClosed` once. */
  tunnelOpened(client: Duplex, upstream: Socket, onClosed: () => void): void {
    (client as Counted)[UNCOUNT]?.();
    this.websockets += 1;
    let open = true;
    const closed = () => {
      if (open) this.websockets -= 1;
      open = false;
      onClosed();
    };
    client.once('close', closed);
    upstream.once('close', closed);
  }
}
