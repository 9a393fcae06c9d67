import type { HttpAdapterHost } from '@nestjs/core';
import { WsAdapter } from '@nestjs/platform-ws';
import type { WsAuthService } from './ws-auth.service';

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
    return super.create(port, { ...options, verifyClient: this.auth.verifyClient });
  }
}
