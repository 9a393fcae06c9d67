import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessTokenClaims } from '@media/contracts';
import {
  bearerToken,
  JwksKeyStore,
  Unauthenticated,
  UpstreamUnavailable,
  tokenRules,
  TokenVersions,
  verifyAccessToken,
  type PlatformConfig,
} from '@media/core';
import { DrainHooks } from '@media/platform';
import { InjectConfig } from '@media/kernel';
import type { ResumePoint } from './frames.service';
import { TicketsService } from './tickets.service';

/** Where the verified claims of an accepted upgrade are kept on its request. */
export const WS_CLAIMS = Symbol('ws-claims');
/** Where the socket's first seq (FramesService.resumePoint) is kept, read before the upgrade completes. */
export const WS_START = Symbol('ws-start');
export type AuthenticatedUpgrade = IncomingMessage & {
  [WS_CLAIMS]?: AccessTokenClaims;
  [WS_START]?: ResumePoint;
};

/**
 * Authenticates a websocket upgrade before the protocol switch: an `Authorization: Bearer`
 * header, or a single-use `?ticket=`. Nothing else (in particular no `?access_token=`): a
 * refusal is an HTTP 401 with the contract's error body.
 */
@Injectable()
export class WsAuthService {
  constructor(
    @Inject(JwksKeyStore) private readonly keys: JwksKeyStore,
    @InjectConfig() private readonly config: PlatformConfig,
    @Inject(TicketsService) private readonly tickets: TicketsService,
    @Inject(DrainHooks) private readonly drain: DrainHooks,
    @Inject(TokenVersions) private readonly versions: TokenVersions,
  ) {}

  async authenticate(req: IncomingMessage): Promise<AccessTokenClaims> {
    // A draining replica takes no new sockets: the client retries (on another replica).
    if (this.drain.draining) throw new UpstreamUnavailable('This replica is shutting down; retry shortly.');
    const url = new URL(req.url ?? '/', 'http://upgrade.invalid');
    const ticket = url.searchParams.get('ticket');
    if (ticket !== null) {
      const claims = await this.tickets.redeem(ticket);
      if (!claims)
        throw new Unauthenticated('token_invalid', 'The websocket ticket is unknown, used or expired.');
      if (claims.exp * 1000 <= Date.now())
        throw new Unauthenticated('token_expired', 'The access token has expired.');
      this.versions.check(claims);
      return claims;
    }
    const raw = bearerToken(req.headers.authorization);
    if (!raw) throw new Unauthenticated('not_authenticated', 'Authentication credentials were not provided.');
    const claims = await verifyAccessToken(this.keys, tokenRules(this.config.auth), raw);
    this.versions.check(claims);
    return claims;
  }
}
