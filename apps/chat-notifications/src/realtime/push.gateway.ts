import type { IncomingMessage } from 'node:http';
import { Inject, Logger } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayDisconnect } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { PushService } from './push.service';
import { WS_CLAIMS, type AuthenticatedUpgrade } from './ws-auth';

/** Close code sent when the token a socket was opened with expires (4000 + HTTP 401). */
export const CLOSE_TOKEN_EXPIRED = 4401;

type TrackedSocket = WebSocket & { userId?: string; expiry?: NodeJS.Timeout };

/**
 * `GET /api/v1/ws` (upgrade): server-to-client pushes only, frames `{event, data}` with
 * `chat.message` and `notification`. Authenticated at the upgrade (see WsAuthenticator).
 */
@WebSocketGateway({ path: '/api/v1/ws' })
export class PushGateway implements OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger('PushGateway');

  constructor(@Inject(PushService) private readonly push: PushService) {}

  handleConnection(socket: TrackedSocket, req: IncomingMessage): void {
    const claims = (req as AuthenticatedUpgrade)[WS_CLAIMS];
    if (!claims) {
      socket.close(1008, 'not_authenticated');
      return;
    }
    socket.userId = claims.sub;
    this.push.register(claims.sub, socket);
    // The socket lives no longer than the token it was opened with.
    const remaining = Math.max(0, claims.exp * 1000 - Date.now());
    socket.expiry = setTimeout(() => socket.close(CLOSE_TOKEN_EXPIRED, 'token_expired'), remaining);
    socket.expiry.unref();
    this.logger.log({ user_id: claims.sub }, 'websocket connected');
  }

  handleDisconnect(socket: TrackedSocket): void {
    clearTimeout(socket.expiry);
    if (socket.userId) this.push.unregister(socket.userId, socket);
  }
}
