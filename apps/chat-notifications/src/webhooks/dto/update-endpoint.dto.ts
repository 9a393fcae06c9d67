import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  WEBHOOK_MAX_EVENT_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  type UpdateWebhookEndpointRequest,
} from '@media/contracts';
import { IsCleanText, ItemType, Nullable, Optional } from '@media/platform';

/** `PATCH /api/v1/webhooks/endpoints/{id}`: the fields given change; `disabled: false` enables it again. */
export class UpdateEndpointDto implements UpdateWebhookEndpointRequest {
  @ApiPropertyOptional({ maxLength: WEBHOOK_URL_MAX_LENGTH })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  @IsCleanText()
  url?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @Nullable()
  @IsString()
  @MaxLength(1000)
  @IsCleanText()
  description?: string | null;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: WEBHOOK_MAX_EVENT_TYPES })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_MAX_EVENT_TYPES)
  @ArrayUnique()
  @IsString({ each: true })
  @ItemType(String)
  event_types?: string[];

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  disabled?: boolean;
}
