import type { IncomingMessage } from 'node:http';
import { Inject, Logger } from '@nestjs/common';
import {
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import { CLOSE_TOKEN_REVOKED, TokenVersions } from '@media/core';
import { DrainHooks } from '@media/platform';
import type { WebSocketServer as Server } from 'ws';
import { PushService, type PushSocket } from './push.service';
import { WS_CLAIMS, WS_START, type AuthenticatedUpgrade } from './ws-auth.service';

/** Close code sent when the token a socket was opened with expires (4000 + HTTP 401). */
export const CLOSE_TOKEN_EXPIRED = 4401;

/** Close code sent to every socket when the replica drains (RFC 6455 "going away"): clients reconnect elsewhere. */
export const CLOSE_GOING_AWAY = 1001;

type TrackedSocket = PushSocket & { userId?: string; tokenVer?: number; expiry?: NodeJS.Timeout };

/**
 * The `?resume=` of an upgrade: null when absent, NaN when it is not a seq (answered as unknown,
 * with a `resync` frame).
 */
export function resumeOf(req: IncomingMessage): number | null {
  const value = new URL(req.url ?? '/', 'http://upgrade.invalid').searchParams.get('resume');
  if (value === null) return null;
  return /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
}

/**
 * `GET /api/v1/ws[?resume=<seq>]` (upgrade): server-to-client pushes only, frames
 * `{event, data, seq}` with `chat.message`, `chat.message.updated`, `chat.message.deleted`,
 * `notification` and `resync` (PushService). Authenticated at the upgrade (see WsAuthService).
 */
@WebSocketGateway({ path: '/api/v1/ws' })
export class PushGateway implements OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger('PushGateway');
  @WebSocketServer() private readonly server?: Server;

  constructor(
    @Inject(PushService) private readonly push: PushService,
    @Inject(DrainHooks) drain: DrainHooks,
    @Inject(TokenVersions) versions: TokenVersions,
  ) {
    // New upgrades are refused from then on (WsAuthService); the open sockets get a close frame.
    drain.onDrain(() => this.closeAll());
    // A socket lives no longer than its token: revoked, it closes as an expired one does.
    versions.onRaised((userId, ver) => this.closeRevoked(userId, ver));
  }

  private closeRevoked(userId: string, ver: number): void {
    for (const socket of (this.server?.clients ?? []) as Set<TrackedSocket>) {
      if (socket.userId === userId && (socket.tokenVer ?? 0) < ver)
        socket.close(CLOSE_TOKEN_REVOKED, 'token_revoked');
    }
  }

  /** Sends every open socket a 1001 close frame and waits until each has closed. */
  private async closeAll(): Promise<void> {
    const sockets = [...(this.server?.clients ?? [])];
    if (sockets.length > 0)
      this.logger.log({ sockets: sockets.length }, 'draining: closing websockets (1001)');
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === socket.CLOSED) return resolve();
            socket.once('close', () => resolve());
            socket.close(CLOSE_GOING_AWAY, 'going_away');
          }),
      ),
    );
  }

  handleConnection(socket: TrackedSocket, req: IncomingMessage): void {
    const { [WS_CLAIMS]: claims, [WS_START]: start } = req as AuthenticatedUpgrade;
    if (!claims || !start) {
      socket.close(1008, 'not_authenticated');
      return;
    }
    socket.userId = claims.sub;
    socket.tokenVer = claims.ver ?? 0;
    this.push.attach(claims.sub, socket, start);
    // The socket lives no longer than the token it was opened with.
    const remaining = Math.max(0, claims.exp * 1000 - Date.now());
    socket.expiry = setTimeout(() => socket.close(CLOSE_TOKEN_EXPIRED, 'token_expired'), remaining);
    socket.expiry.unref();
    this.logger.log({ user_id: claims.sub }, 'websocket connected');
  }

  handleDisconnect(socket: TrackedSocket): void {
    clearTimeout(socket.expiry);
    if (socket.userId) this.push.detach(socket.userId, socket);
  }
}
