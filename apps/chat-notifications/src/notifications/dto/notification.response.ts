import { ApiProperty } from '@nestjs/swagger';
import { NOTIFICATION_PRIORITIES, type NotificationPriority } from '@media/contracts';
import type {
  InboxPage,
  NotificationView,
  PreferencesView,
  PreferenceView,
  ReadAllView,
} from '../notifications.view';

/** NotificationPreference of the seed. */
export class PreferenceResponse implements PreferenceView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) recipient_id!: string;
  @ApiProperty({ description: '`*` applies when no type-specific row exists' }) notification_type!: string;
  @ApiProperty({ enum: ['websocket', 'email'] }) channel!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PreferencesResponse implements PreferencesView {
  @ApiProperty({ type: [PreferenceResponse] }) preferences!: PreferenceResponse[];
}

export class DeliveriesResponse {
  @ApiProperty({
    enum: ['pending', 'sent', 'held', 'disabled'],
    description: '`held`: arrived during quiet hours; never pushed later (the inbox has it)',
  })
  websocket!: string;
  @ApiProperty({
    enum: ['pending', 'sent', 'held', 'digest', 'disabled', 'skipped', 'failed'],
    description: '`held`: waits for the end of quiet hours; `digest`: waits for the daily digest',
  })
  email!: string;
}

/** One inbox entry. */
export class NotificationResponse implements NotificationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) recipient_id!: string;
  @ApiProperty() notification_type!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) body!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
  @ApiProperty({
    enum: NOTIFICATION_PRIORITIES,
    description: 'As tasks; `URGENT` is never held by quiet hours',
  })
  priority!: NotificationPriority;
  @ApiProperty() is_read!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) read_at!: string | null;
  @ApiProperty() is_archived!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) archived_at!: string | null;
  @ApiProperty({ type: DeliveriesResponse }) deliveries!: DeliveriesResponse;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** A cursor page of the inbox, with the caller's unread count. */
export class InboxPageResponse implements InboxPage {
  @ApiProperty({ type: [NotificationResponse] }) results!: NotificationResponse[];
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next!: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous!: string | null;
  @ApiProperty({ minimum: 0 }) unread_count!: number;
}

export class ReadAllResponse implements ReadAllView {
  @ApiProperty({ description: 'Entries marked read by this call' }) updated!: number;
  @ApiProperty() unread_count!: number;
}
