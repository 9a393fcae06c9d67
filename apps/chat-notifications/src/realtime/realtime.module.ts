import { Module } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef, type ApplicationConfig } from '@nestjs/core';
import { Feature } from '@media/platform';
import { WsFrames1764800000040 } from '../database/migrations/1764800000040-ws-frames';
import { FramesService } from './frames.service';
import { framesWorker } from './frames.worker';
import { PushGateway } from './push.gateway';
import { PushService } from './push.service';
import { TicketsController } from './tickets.controller';
import { TicketsService } from './tickets.service';
import { AuthenticatedWsAdapter } from './ws-adapter';
import { WsAuthService } from './ws-auth.service';

/**
 * Installs the websocket adapter. The platform's bootstrap (libs/platform) has no hook for
 * `app.useWebSocketAdapter`, and the adapter must be in place before the app initialises its
 * gateways, which is after providers are built: so a provider sets it on the application config.
 */
const adapterInstaller = {
  provide: 'WS_ADAPTER_INSTALLED',
  inject: [ModuleRef, HttpAdapterHost, WsAuthService, FramesService],
  useFactory: (ref: ModuleRef, host: HttpAdapterHost, auth: WsAuthService, frames: FramesService) => {
    const config = (ref as unknown as { container: { applicationConfig: ApplicationConfig } }).container
      .applicationConfig;
    config.setIoAdapter(new AuthenticatedWsAdapter(host, auth, frames));
    return true;
  },
};

@Feature({ migrations: [WsFrames1764800000040] })
@Module({
  controllers: [TicketsController],
  providers: [
    FramesService,
    framesWorker,
    PushService,
    TicketsService,
    WsAuthService,
    PushGateway,
    adapterInstaller,
  ],
  exports: [PushService, FramesService],
})
export class RealtimeModule {}
