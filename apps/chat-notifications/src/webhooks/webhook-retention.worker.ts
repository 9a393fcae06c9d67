import { Logger } from '@nestjs/common';
import { periodicJobProvider } from '@media/messaging';
import { WebhookRetentionService } from './webhook-retention.service';

const EVERY_MS = 10 * 60_000;
const logger = new Logger('Webhooks');

/** Deletes webhook events past WEBHOOK_RETENTION every 10 minutes (every replica; rows are shared). */
export const webhookRetentionWorker = periodicJobProvider({
  name: 'WebhookRetention',
  inject: [WebhookRetentionService],
  useFactory: (retention: WebhookRetentionService) => ({
    every: EVERY_MS,
    firstAfter: 60_000,
    jitter: 0.2,
    actor: 'chat-notifications:webhook-retention',
    run: () => retention.prune(),
    onResult: (deleted: number) => {
      if (deleted > 0) logger.log({ deleted }, 'Old webhook events deleted');
    },
  }),
});
