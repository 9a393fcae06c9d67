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
import {
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  CurrentUser,
  envelope,
  Idempotent,
  type Envelope,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { CreateMessageDto } from './dto/create-message.dto';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessageIdParams } from './dto/message-id.params';
import { MessageResponse } from './dto/message.response';
import { RoomIdParams } from './dto/room-id.params';
import { UpdateMessageDto } from './dto/update-message.dto';
import type { MessageView } from './message.view';
import { MessagesService } from './messages.service';

/** A room's messages (docs/api/contract.md §4.1, §7.4); every success with a body is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class MessagesController {
  constructor(@Inject(MessagesService) private readonly messages: MessagesService) {}

  @Post(':id/messages')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ summary: 'Post a message to a room' })
  @ApiSuccess(MessageResponse, { status: 201, envelope: true })
  @ApiErrors(401, [404, 'Unknown room, or the caller is not a member'], [409, 'room_inactive'], 413, 415, [
    422,
    'Invalid body, or a mention of a non-member (at ["body","mentions","<i>"])',
  ])
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

  @Patch(':id/messages/:message_id')
  @ApiOperation({ summary: 'Edit a message (its sender, within CHAT_EDIT_WINDOW)' })
  @ApiSuccess(MessageResponse, { envelope: true, description: 'The edited message (`edited_at` set)' })
  @ApiErrors(
    401,
    [403, 'Not the sender'],
    [404, 'Unknown room or message, or the caller is not a member'],
    [409, 'edit_window_closed or message_deleted'],
    413,
    415,
    422,
  )
  async edit(
    @Param() params: MessageIdParams,
    @Body() dto: UpdateMessageDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<MessageView>> {
    return envelope('Message edited', await this.messages.edit(params.id, params.message_id, dto, user));
  }

  @Delete(':id/messages/:message_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a message (its sender within CHAT_EDIT_WINDOW; an ADMIN of a GROUP room at any time)',
  })
  @ApiNoContent('Deleted: the message stays in the list with body null and deleted_at set')
  @ApiErrors(
    401,
    [403, 'Neither the sender nor an ADMIN of a GROUP room'],
    [404, 'Unknown room or message, or the caller is not a member'],
    [409, 'edit_window_closed'],
    422,
  )
  async delete(@Param() params: MessageIdParams, @CurrentUser() user: AuthUser): Promise<void> {
    await this.messages.delete(params.id, params.message_id, user);
  }
}
