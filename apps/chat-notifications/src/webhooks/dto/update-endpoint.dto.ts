import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { UpdateWebhookEndpointRequest } from '@media/contracts';
import { Optional } from '@media/kernel';
import { CreateEndpointDto } from './create-endpoint.dto';

/**
 * `PATCH /api/v1/webhooks/endpoints/{id}`: the fields given change, with the rules of creation
 * (`skipNullProperties: false`: a field left out is skipped, but `null` is validated, so only
 * `description` may be cleared); `disabled: false` enables it again.
 */
export class UpdateEndpointDto
  extends PartialType(OmitType(CreateEndpointDto, ['disabled'] as const), { skipNullProperties: false })
  implements UpdateWebhookEndpointRequest
{
  @ApiPropertyOptional({ description: '`true` stops deliveries; `false` enables the endpoint again.' })
  @Optional()
  @IsBoolean()
  disabled?: boolean;
}
