import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions, type WebhookEventTypeView } from '@media/contracts';
import { ApiErrors, ApiSuccess, envelope, RequirePermissions, type Envelope } from '@media/http';
import { WebhookEventTypeResponse } from './dto/event-type.response';
import { EndpointsService } from './endpoints.service';

/** The event types webhooks deliver, with the JSON Schema of each one's `data`. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks/event-types')
export class EventTypesController {
  constructor(@Inject(EndpointsService) private readonly endpoints: EndpointsService) {}

  @Get()
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'The catalogue of event types (not paged)' })
  @ApiSuccess(WebhookEventTypeResponse, { list: 'array', envelope: true })
  @ApiErrors(401, [403, '`webhooks:admin` is needed'])
  list(): Envelope<WebhookEventTypeView[]> {
    return envelope('Event types', this.endpoints.eventTypes());
  }
}
