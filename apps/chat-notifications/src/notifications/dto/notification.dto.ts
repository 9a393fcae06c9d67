import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_PRIORITIES,
  type NotificationChannel,
  type NotificationPriority,
  type NotificationsSubjects,
  type RpcRequest,
} from '@media/contracts';
import { IsName, Nullable, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';

export const MAX_PREFERENCES = 100;

/** One item of `PUT /api/v1/notifications/preferences` (docs/api/contract.md §4.14). */
export class PreferenceItemDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: '`*` for every type without its own row' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  notification_type!: string;

  @ApiPropertyOptional({ enum: NOTIFICATION_CHANNELS, default: 'websocket' })
  @Optional()
  @IsIn(NOTIFICATION_CHANNELS)
  channel: NotificationChannel = 'websocket';

  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

const toBool = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `GET /api/v1/notifications`: archived entries are left out unless `archived=true`. */
export class ListNotificationsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'true: unread only; false: read only' })
  @Optional()
  @Transform(toBool)
  @IsBoolean()
  unread?: boolean;

  @ApiPropertyOptional({ description: 'true: archived only; false (default): not archived' })
  @Optional()
  @Transform(toBool)
  @IsBoolean()
  archived?: boolean;
}

export class NotificationIdParams {
  @IsUUID('all')
  id!: string;
}

/** Payload of the `notifications.send` NATS request (loc starts at `data`). */
export class SendNotificationDto implements RpcRequest<typeof NotificationsSubjects.send> {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  recipient_ids!: string[];

  @IsString()
  @MinLength(1)
  @MaxLength(100)
  notification_type!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @IsName()
  title!: string;

  @Nullable()
  @IsString()
  @MaxLength(4000)
  body?: string | null;

  @Optional()
  @IsObject()
  data?: Record<string, unknown>;

  @Optional()
  @IsIn(NOTIFICATION_PRIORITIES)
  priority?: NotificationPriority;
}
