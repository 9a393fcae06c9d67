import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { Webhooks1764800000040 } from '../database/migrations/1764800000040-webhooks';
import { ResolverService } from './resolver.service';
import { EndpointsController } from './endpoints.controller';
import { EndpointsService } from './endpoints.service';
import { EventTypesController } from './event-types.controller';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookMessage } from './webhook-message.entity';

/** Outbound webhooks (docs/api/webhooks.md). */
@Feature({ entities: [WebhookEndpoint, WebhookMessage], migrations: [Webhooks1764800000040] })
@Module({
  controllers: [EventTypesController, EndpointsController],
  providers: [ResolverService, EndpointsService],
})
export class WebhooksModule {}
