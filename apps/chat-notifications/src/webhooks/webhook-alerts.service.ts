import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AclSubjects, Permissions } from '@media/contracts';
import { RpcClient } from '@media/messaging';
import type { DataSource } from 'typeorm';
import { NotifierService } from '../notifications/notifier.service';

/** The inbox entry's type when an endpoint was disabled by its failures or a 410. */
export const ENDPOINT_DISABLED_NOTIFICATION = 'webhooks.endpoint.disabled';

/** Tells the holders of `webhooks:admin` (asked of acl) that an endpoint was disabled. */
@Injectable()
export class WebhookAlertsService {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(NotifierService) private readonly notifier: NotifierService,
  ) {}

  async endpointDisabled(endpointId: string, url: string, reason: string): Promise<void> {
    this.logger.warn({ endpoint_id: endpointId, reason }, 'Webhook endpoint disabled');
    try {
      const { user_ids } = await this.rpc.send(AclSubjects.usersHolding, {
        permission: Permissions.webhooksAdmin,
      });
      if (user_ids.length === 0) return;
      await this.dataSource.transaction((manager) =>
        this.notifier.notify(manager, {
          recipient_ids: user_ids,
          notification_type: ENDPOINT_DISABLED_NOTIFICATION,
          title: 'A webhook endpoint was disabled',
          body: `${new URL(url).origin}: ${reason}. Enable it again with PATCH {"disabled": false}.`,
          data: { endpoint_id: endpointId },
          priority: 'HIGH',
        }),
      );
    } catch (error) {
      this.logger.warn(
        { endpoint_id: endpointId, err: (error as Error).message },
        'Could not tell the webhook admins that an endpoint was disabled',
      );
    }
  }
}
