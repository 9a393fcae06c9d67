import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, envelope, RequirePermissions, type Envelope, type Page } from '@media/http';
import type { Request } from 'express';
import { WebhookAttemptResponse } from './dto/attempt.response';
import { EndpointIdParams } from './dto/endpoint-id.params';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessageIdParams } from './dto/message-id.params';
import { WebhookMessageResponse, WebhookReplayResponse } from './dto/message.response';
import { ReplayDto } from './dto/replay.dto';
import { WebhookMessagesService } from './webhook-messages.service';
import type { WebhookAttemptView, WebhookMessageView } from './webhooks.view';

const ADMIN_NEEDED: [403, string] = [403, '`webhooks:admin` is needed'];
const DISABLED: [409, string] = [409, '`endpoint_disabled`: enable the endpoint first'];

/** What was delivered to an endpoint, each attempt's answer, and sending again. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks/endpoints/:id')
export class WebhookMessagesController {
  constructor(@Inject(WebhookMessagesService) private readonly messages: WebhookMessagesService) {}

  @Get('messages')
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: "An endpoint's messages, newest first (cursor)" })
  @ApiSuccess(WebhookMessageResponse, { list: 'page', envelope: true })
  @ApiErrors(401, ADMIN_NEEDED, 404, 422)
  async list(
    @Param() params: EndpointIdParams,
    @Query() query: ListMessagesQuery,
    @Req() req: Request,
  ): Promise<Envelope<Page<WebhookMessageView>>> {
    return envelope('Messages', await this.messages.list(params.id, query, req));
  }

  @Get('messages/:message_id/attempts')
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: "A message's attempts, oldest first, each with the first 1 KiB of the answer" })
  @ApiSuccess(WebhookAttemptResponse, { list: 'array', envelope: true })
  @ApiErrors(401, ADMIN_NEEDED, 404, 422)
  async attempts(@Param() params: MessageIdParams): Promise<Envelope<WebhookAttemptView[]>> {
    return envelope('Attempts', await this.messages.attempts(params.id, params.message_id));
  }

  @Post('messages/:message_id/retry')
  @HttpCode(202)
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Send a message again now (the same webhook-id)' })
  @ApiSuccess(WebhookMessageResponse, { status: 202, envelope: true, description: 'Queued' })
  @ApiErrors(401, ADMIN_NEEDED, 404, DISABLED, 422)
  async retry(@Param() params: MessageIdParams): Promise<Envelope<WebhookMessageView>> {
    return envelope('Retry queued', await this.messages.retry(params.id, params.message_id));
  }

  @Post('replay')
  @HttpCode(202)
  @RequirePermissions(Permissions.webhooksAdmin)
  @ApiOperation({ summary: 'Send every matching event since a time again (the same webhook-ids)' })
  @ApiSuccess(WebhookReplayResponse, { status: 202, envelope: true, description: 'Queued' })
  @ApiErrors(401, ADMIN_NEEDED, 404, DISABLED, 413, 415, 422)
  async replay(
    @Param() params: EndpointIdParams,
    @Body() dto: ReplayDto,
  ): Promise<Envelope<{ messages: number }>> {
    return envelope('Replay queued', { messages: await this.messages.replay(params.id, dto.since) });
  }
}
