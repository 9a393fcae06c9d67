import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  envelope,
  type AuthUser,
  type Envelope,
  type Page,
} from '@media/platform';
import type { Request } from 'express';
import { CreateMessageDto } from './dto/create-message.dto';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessageResponse } from './dto/message.response';
import { RoomIdParams } from './dto/room-id.params';
import type { MessageView } from './message.view';
import { MessagesService } from './messages.service';

/** A room's messages (docs/api/contract.md §4.1); every success is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class MessagesController {
  constructor(@Inject(MessagesService) private readonly messages: MessagesService) {}

  @Post(':id/messages')
  @HttpCode(201)
  @ApiOperation({ summary: 'Post a message to a room' })
  @ApiSuccess(MessageResponse, { status: 201, envelope: true })
  @ApiErrors(401, 404, 409, 413, 415, 422)
  async post(
    @Param() params: RoomIdParams,
    @Body() dto: CreateMessageDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<MessageView>> {
    return envelope('Message sent', await this.messages.post(params.id, dto, user));
  }

  @Get(':id/messages')
  @ApiOperation({ summary: "A room's messages (cursor)" })
  @ApiSuccess(MessageResponse, { list: 'page', envelope: true })
  @ApiErrors(401, 404, 422)
  async list(
    @Param() params: RoomIdParams,
    @Query() query: ListMessagesQuery,
    @Req() req: Request,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<Page<MessageView>>> {
    return envelope('Messages', await this.messages.list(params.id, query, req, user));
  }
}
