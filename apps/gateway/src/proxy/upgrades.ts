import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  bearerToken,
  CLOSE_TOKEN_REVOKED,
  DomainError,
  pickRequestId,
  RateLimited,
  UpstreamUnavailable,
  type TokenVersions,
  type TrustedProxies,
} from '@media/core';
import { newNote, type AccessLog, type RequestNote } from '../access-log/access-log';
import type { GatewayConfig } from '../config';
import type { ConnectionCount } from '../connections/connection-count';
import type { GatewayLogger } from '../logger';
import { queryTicket, type TokenChecker } from './auth';
import { clientAddress } from './headers';
import { publicOriginOf, type HostPolicy, type PublicOrigin } from './hosts';
import { InternalError, InvalidPath, RouteNotFound, writeSocketError } from './errors';
import type { ClientLimit } from '../workers/shared-rate-limit';
import { firstSegment, hasDotSegment, pathOf, ROUTES } from './routes';
import { goAway } from '../shutdown/go-away';
import { proxyUpgrade } from './websocket';

export interface UpgradesDeps {
  config: GatewayConfig;
  log: GatewayLogger;
  accessLog: AccessLog;
  tokens: TokenChecker;
  limiter: ClientLimit;
  trusted: TrustedProxies;
  hosts: HostPolicy;
  connections: ConnectionCount;
  /** Whether the gateway is shutting down (an upgrade is then refused with 503). */
  closing: () => boolean;
  /** Revoked tokens: a tunnel opened with one is closed (4401). */
  versions?: TokenVersions;
}

/** Whose token opened a tunnel (upgrades with a chat ticket are chat's to close). */
interface TunnelOwner {
  sub: string;
  ver: number;
}

/**
 * Websocket upgrades: routed like requests, the token checked (or a chat ticket let through),
 * limited, then tunnelled to the upstream. Open tunnels are kept for the shutdown to close.
 */
export class Upgrades {
  /** Open websocket tunnels (client socket -> upstream socket): shutdown closes them with 1001. */
  readonly tunnels = new Map<Duplex, Socket>();
  private readonly owners = new Map<Duplex, TunnelOwner>();

  private readonly publicOrigin: PublicOrigin | undefined;

  constructor(private readonly deps: UpgradesDeps) {
    this.publicOrigin = publicOriginOf(deps.config.publicUrl);
    deps.versions?.onRaised((userId, ver) => this.closeRevoked(userId, ver));
  }

  /** Ends the tunnels of `userId` opened with a token below `ver`: close frames with 4401. */
  private closeRevoked(userId: string, ver: number): void {
    for (const [client, owner] of this.owners) {
      const upstream = this.tunnels.get(client);
      if (owner.sub !== userId || owner.ver >= ver || !upstream) continue;
      this.owners.delete(client);
      goAway(client, upstream, CLOSE_TOKEN_REVOKED);
    }
  }

  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const id = pickRequestId(req);
    const note = newNote(id);
    const logLine = (status: number) => this.deps.accessLog.upgradeSettled(req, note, status);
    this.upgrade(req, socket, head, note, logLine).catch((error: unknown) => {
      const answer = error instanceof DomainError ? error : new InternalError();
      if (!(error instanceof DomainError))
        this.deps.log.error({ request_id: id, err: error }, 'upgrade failed');
      note.code = answer.code;
      logLine(answer.status);
      writeSocketError(socket, answer, id);
    });
  };

  private async upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    note: RequestNote,
    logLine: (status: number) => void,
  ): Promise<void> {
    if (this.deps.closing()) throw new UpstreamUnavailable('The gateway is shutting down.');
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47) throw new InvalidPath();
    const path = pathOf(url);
    if (hasDotSegment(path)) throw new InvalidPath();
    this.deps.hosts.check(req);
    const segment = firstSegment(path);
    const app = ROUTES.get(segment);
    if (!app) throw new RouteNotFound(segment);
    // Browsers cannot set headers on a websocket: chat-notifications issues them a single-use
    // ticket, which only it can redeem, so such an upgrade goes through unverified here (and is
    // limited by address). Everything else needs the Authorization header.
    const header = bearerToken(req.headers.authorization);
    let limitKey: string;
    let owner: TunnelOwner | undefined;
    if (!header && app === 'chat-notifications' && queryTicket(url) !== undefined) {
      limitKey = `ip:${clientAddress(req, this.deps.trusted)}`;
    } else {
      const claims = await this.deps.tokens.verify(header);
      note.userId = claims.sub;
      limitKey = `sub:${claims.sub}`;
      owner = { sub: claims.sub, ver: claims.ver ?? 0 };
    }
    const wait = await this.deps.limiter.take(limitKey);
    if (wait > 0) throw new RateLimited(wait);
    note.upstream = app;
    if (!this.deps.connections.websocketRoom())
      throw new UpstreamUnavailable('The gateway is at its websocket limit; retry shortly.');
    proxyUpgrade(req, socket, head, {
      origin: this.deps.config.upstreams[app],
      app,
      upstreamTimeout: this.deps.config.timeouts.upstream,
      requestId: note.requestId,
      trustedProxies: this.deps.trusted,
      publicOrigin: this.publicOrigin,
      onSettled: (status) => logLine(status),
      onTunnel: (client, upstream: Socket) => {
        // An open tunnel is exempt from the HTTP timeouts and counts as a websocket, not HTTP.
        (client as Socket).setTimeout?.(0);
        this.tunnels.set(client, upstream);
        if (owner) this.owners.set(client, owner);
        this.deps.connections.tunnelOpened(client, upstream, () => {
          this.tunnels.delete(client);
          this.owners.delete(client);
        });
      },
    });
  }
}
