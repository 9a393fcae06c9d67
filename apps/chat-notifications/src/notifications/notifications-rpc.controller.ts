import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { NotificationsSubjects, type NotificationsRpc, type RpcEnvelope } from '@media/contracts';
import { validateDto } from '@media/platform';
import type { DataSource } from 'typeorm';
import { SendNotificationDto } from './dto/notification.dto';
import { Notifier } from './notifier.service';

type SendRequest = RpcEnvelope<NotificationsRpc[typeof NotificationsSubjects.send]['req']>;

/** `notifications.send`: other apps put entries in users' inboxes. */
@Controller()
export class NotificationsRpcController {
  constructor(
    @Inject(Notifier) private readonly notifier: Notifier,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @MessagePattern(NotificationsSubjects.send)
  async send(@Payload() envelope: SendRequest): Promise<{ delivered: number }> {
    const data = await validateDto(SendNotificationDto, envelope?.data, ['data']);
    const delivered = await this.dataSource.transaction((manager) => this.notifier.notify(manager, data));
    return { delivered };
  }
}
