import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { Webhooks1764800000050 } from '../database/migrations/1764800000050-webhooks';
import { NotificationsModule } from '../notifications/notifications.module';
import { WebhookAlertsService } from './webhook-alerts.service';
import { WebhookRetentionService } from './webhook-retention.service';
import { webhookRetentionWorker } from './webhook-retention.worker';
import { WebhooksConsumer } from './webhooks.consumer';
import { WebhooksWorker } from './webhooks.worker';
import { ResolverService } from './resolver.service';
import { EndpointsController } from './endpoints.controller';
import { EndpointsService } from './endpoints.service';
import { EventTypesController } from './event-types.controller';
import { WebhookMessagesController } from './webhook-messages.controller';
import { WebhookMessagesService } from './webhook-messages.service';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookMessage } from './webhook-message.entity';

/** Outbound webhooks (docs/api/webhooks.md). */
@Feature({ entities: [WebhookEndpoint, WebhookMessage], migrations: [Webhooks1764800000050] })
@Module({
  imports: [NotificationsModule],
  controllers: [EventTypesController, EndpointsController, WebhookMessagesController],
  providers: [
    WebhookMessagesService,
    ResolverService,
    EndpointsService,
    WebhookAlertsService,
    WebhooksWorker,
    WebhookRetentionService,
    webhookRetentionWorker,
    WebhooksConsumer,
  ],
})
export class WebhooksModule {}
