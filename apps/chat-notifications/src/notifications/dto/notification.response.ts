import { ApiProperty } from '@nestjs/swagger';
import type { Notification } from '../notification.entity';
import type { NotificationPreference } from '../notification-preference.entity';

/** NotificationPreference of the seed. */
export class PreferenceView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) recipient_id!: string;
  @ApiProperty({ description: '`*` applies when no type-specific row exists' }) notification_type!: string;
  @ApiProperty({ enum: ['websocket', 'email'] }) channel!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PreferencesView {
  @ApiProperty({ type: [PreferenceView] }) preferences!: PreferenceView[];
}

export class DeliveriesView {
  @ApiProperty({ enum: ['pending', 'sent', 'disabled'] }) websocket!: string;
  @ApiProperty({ enum: ['pending', 'sent', 'disabled', 'skipped', 'failed'] }) email!: string;
}

/** One inbox entry. */
export class NotificationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) recipient_id!: string;
  @ApiProperty() notification_type!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) body!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
  @ApiProperty() is_read!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) read_at!: string | null;
  @ApiProperty() is_archived!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) archived_at!: string | null;
  @ApiProperty({ type: DeliveriesView }) deliveries!: DeliveriesView;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** A cursor page of the inbox, with the caller's unread count. */
export class InboxPageView {
  @ApiProperty({ type: [NotificationView] }) results!: NotificationView[];
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next!: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous!: string | null;
  @ApiProperty({ minimum: 0 }) unread_count!: number;
}

export class ReadAllView {
  @ApiProperty({ description: 'Entries marked read by this call' }) updated!: number;
  @ApiProperty() unread_count!: number;
}

export function preferenceView(p: NotificationPreference): PreferenceView {
  return {
    id: p.id,
    recipient_id: p.recipientId,
    notification_type: p.notificationType,
    channel: p.channel,
    enabled: p.enabled,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function notificationView(n: Notification): NotificationView {
  return {
    id: n.id,
    recipient_id: n.recipientId,
    notification_type: n.notificationType,
    title: n.title,
    body: n.body,
    data: n.data,
    is_read: n.readAt !== null,
    read_at: n.readAt?.toISOString() ?? null,
    is_archived: n.archivedAt !== null,
    archived_at: n.archivedAt?.toISOString() ?? null,
    deliveries: { websocket: n.websocketStatus, email: n.emailStatus },
    created_at: n.createdAt.toISOString(),
  };
}
