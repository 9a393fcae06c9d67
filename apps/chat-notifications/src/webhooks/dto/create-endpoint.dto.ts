import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  type CreateWebhookEndpointRequest,
} from '@media/contracts';
import { IsCleanText, ItemType, Nullable, Optional } from '@media/kernel';

/** `POST /api/v1/webhooks/endpoints`; the URL's rules and its addresses are checked by the service. */
export class CreateEndpointDto implements CreateWebhookEndpointRequest {
  @ApiProperty({
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    example: 'https://hooks.example.com/backoffice',
    description:
      '`https://` (or `http://` when WEBHOOKS_ALLOW_HTTP is true), no credentials; its host must not resolve to a loopback, private, link-local, multicast or unspecified address unless WEBHOOKS_ALLOW_PRIVATE is true (422 `url_not_allowed`).',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  @IsCleanText()
  url!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @Nullable()
  @IsString()
  @MaxLength(1000)
  @IsCleanText()
  description?: string | null;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: WEBHOOK_MAX_EVENT_TYPES,
    example: ['assignment.task.claimed'],
    description: 'Types from `GET /api/v1/webhooks/event-types`, or `["*"]` for every type.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_MAX_EVENT_TYPES)
  @ArrayUnique()
  @IsString({ each: true })
  @ItemType(String)
  event_types!: string[];

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  disabled?: boolean;
}
