import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { NotificationsSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import type { DataSource } from 'typeorm';
import { SendNotificationDto } from './dto/notification.dto';
import { NotifierService } from './notifier.service';

/** `notifications.send`: other apps put entries in users' inboxes. */
@Controller()
export class NotificationsRpc {
  constructor(
    @Inject(NotifierService) private readonly notifier: NotifierService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @MessagePattern(NotificationsSubjects.send)
  async send(
    @RpcPayload(SendNotificationDto) data: SendNotificationDto,
  ): Promise<RpcReply<typeof NotificationsSubjects.send>> {
    const delivered = await this.dataSource.transaction((manager) => this.notifier.notify(manager, data));
    return { delivered };
  }
}
