import type { IncomingMessage } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import { WsAdapter } from '@nestjs/platform-ws';
import { DomainError } from '@media/core';
import type { FramesService } from './frames.service';
import { resumeOf } from './push.gateway';
import { WS_CLAIMS, WS_START, type AuthenticatedUpgrade, type WsAuthService } from './ws-auth.service';

type VerifyCallback = (
  ok: boolean,
  code?: number,
  message?: string,
  headers?: Record<string, string>,
) => void;

/**
 * The `ws` adapter with authentication at the upgrade. The HTTP server does not exist yet when
 * the adapter is built (providers come first), so it is looked up when the gateway is bound.
 */
export class AuthenticatedWsAdapter extends WsAdapter {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly auth: WsAuthService,
    private readonly frames: FramesService,
  ) {
    super(undefined);
  }

  override create(port: number, options: Record<string, unknown> & { path?: string } = {}) {
    const self = this as unknown as { httpServer?: unknown };
    self.httpServer ??= this.host.httpAdapter.getHttpServer();
    return super.create(port, { ...options, verifyClient: this.verifyClient });
  }

  /**
   * ws's `verifyClient` in its asynchronous form: the upgrade's HTTP edge, where a refusal is
   * answered in the contract's error shape.
   */
  private readonly verifyClient = (info: { req: IncomingMessage }, done: VerifyCallback): void => {
    const accept = async () => {
      const claims = await this.auth.authenticate(info.req);
      // Where the socket starts is read before the client sees the upgrade complete: whatever
      // is produced for the user once its socket is open comes after it.
      const start = await this.frames.resumePoint(claims.sub, resumeOf(info.req));
      const req = info.req as AuthenticatedUpgrade;
      req[WS_CLAIMS] = claims;
      req[WS_START] = start;
    };
    accept().then(
      () => done(true),
      (error: unknown) => {
        const failure =
          error instanceof DomainError
            ? error
            : new DomainError(503, 'upstream_unavailable', 'Authentication is unavailable.');
        done(false, failure.status, JSON.stringify({ detail: failure.detail, code: failure.code }), {
          'Content-Type': 'application/json',
          ...failure.headers,
        });
      },
    );
  };
}
