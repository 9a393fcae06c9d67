import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  envelope,
  RequirePermissions,
  type Envelope,
  type Page,
} from '@media/http';
import type { Request } from 'express';
import { CreateEndpointDto } from './dto/create-endpoint.dto';
import { EndpointIdParams } from './dto/endpoint-id.params';
import { WebhookEndpointResponse, WebhookEndpointWithSecretResponse } from './dto/endpoint.response';
import { ListEndpointsQuery } from './dto/list-endpoints.query';
import { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { EndpointsService } from './endpoints.service';
import type { WebhookEndpointView, WebhookEndpointWithSecretView } from './webhooks.view';

const ADMIN_NEEDED: [403, string] = [403, '`webhooks:admin` is needed'];

/** Webhook endpoints (docs/api/webhooks.md); every success is enveloped. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks/endpoints')
export class EndpointsController {
  constructor(@Inject(EndpointsService) private readonly endpoints: EndpointsService) {}

  @Post()
  @HttpCode(201)
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Add an endpoint (its secret is shown only in this answer)' })
  @ApiSuccess(WebhookEndpointWithSecretResponse, {
    status: 201,
    envelope: true,
    description: 'Endpoint created',
  })
  @ApiErrors(
    401,
    ADMIN_NEEDED,
    413,
    415,
    [422, 'Invalid body; `url_not_allowed` for a forbidden address'],
    [503, 'WEBHOOK_SECRETS_KEY is not set'],
  )
  async create(@Body() dto: CreateEndpointDto): Promise<Envelope<WebhookEndpointWithSecretView>> {
    return envelope('Endpoint created', await this.endpoints.create(dto));
  }

  @Get()
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Endpoints, newest first (cursor)' })
  @ApiSuccess(WebhookEndpointResponse, { list: 'page', envelope: true })
  @ApiErrors(401, ADMIN_NEEDED, 422)
  async list(
    @Query() query: ListEndpointsQuery,
    @Req() req: Request,
  ): Promise<Envelope<Page<WebhookEndpointView>>> {
    return envelope('Endpoints', await this.endpoints.list(query, req));
  }

  @Get(':id')
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'One endpoint' })
  @ApiSuccess(WebhookEndpointResponse, { envelope: true })
  @ApiErrors(401, ADMIN_NEEDED, 404, 422)
  async get(@Param() params: EndpointIdParams): Promise<Envelope<WebhookEndpointView>> {
    return envelope('Endpoint', await this.endpoints.get(params.id));
  }

  @Patch(':id')
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Change an endpoint; `disabled: false` enables it again' })
  @ApiSuccess(WebhookEndpointResponse, { envelope: true })
  @ApiErrors(401, ADMIN_NEEDED, 404, 413, 415, [
    422,
    'Invalid body; `url_not_allowed` for a forbidden address',
  ])
  async update(
    @Param() params: EndpointIdParams,
    @Body() dto: UpdateEndpointDto,
  ): Promise<Envelope<WebhookEndpointView>> {
    return envelope('Endpoint updated', await this.endpoints.update(params.id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Delete an endpoint and its messages' })
  @ApiNoContent('Deleted')
  @ApiErrors(401, ADMIN_NEEDED, 404, 422)
  async remove(@Param() params: EndpointIdParams): Promise<void> {
    await this.endpoints.remove(params.id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'A new secret; the old one also signs for WEBHOOK_SECRET_OVERLAP' })
  @ApiSuccess(WebhookEndpointWithSecretResponse, { envelope: true, description: 'Secret rotated' })
  @ApiErrors(401, ADMIN_NEEDED, 404, 422, [503, 'WEBHOOK_SECRETS_KEY is not set'])
  async rotateSecret(@Param() params: EndpointIdParams): Promise<Envelope<WebhookEndpointWithSecretView>> {
    return envelope('Secret rotated', await this.endpoints.rotateSecret(params.id));
  }
}
