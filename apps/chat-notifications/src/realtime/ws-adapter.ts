import type { IncomingMessage } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import { WsAdapter } from '@nestjs/platform-ws';
import { DomainError } from '@media/platform';
import { WS_CLAIMS, type AuthenticatedUpgrade, type WsAuthService } from './ws-auth.service';

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
    this.auth.authenticate(info.req).then(
      (claims) => {
        (info.req as AuthenticatedUpgrade)[WS_CLAIMS] = claims;
        done(true);
      },
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
