import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Idempotent,
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  Multipart,
  type AuthUser,
  type Page,
} from '@media/platform';
import type { Request, Response } from 'express';
import { envelope, type Envelope } from '../common/envelope';
import {
  AddMembersDto,
  CreateMessageDto,
  CreateRoomDto,
  DirectRoomDto,
  ListMessagesQuery,
  ListRoomsQuery,
  RoomIdParams,
  RoomMemberParams,
} from './dto/room.dto';
import { MessageView, RoomView } from './dto/room.response';
import { RoomsService } from './rooms.service';

/** Chat rooms, members and messages (docs/api/contract.md §4.1); every success is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class RoomsController {
  constructor(@Inject(RoomsService) private readonly rooms: RoomsService) {}

  /** Seed endpoint 1. */
  @Post()
  @Idempotent()
  @HttpCode(201)
  @Multipart()
  @ApiOperation({ summary: 'Create a room (endpoint 1)' })
  @ApiSuccess(RoomView, { status: 201, envelope: true, description: 'Room created' })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  async create(@Body() dto: CreateRoomDto, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room created', await this.rooms.create(dto, user));
  }

  @Get()
  @ApiOperation({ summary: "The caller's rooms (cursor)" })
  @ApiSuccess(RoomView, { list: 'page', envelope: true })
  @ApiErrors(401, 422)
  async list(
    @Query() query: ListRoomsQuery,
    @Req() req: Request,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<Page<RoomView>>> {
    return envelope('Rooms', await this.rooms.list(query, req, user));
  }

  /** 201 with a new DIRECT room, 200 with the pair's existing one. */
  @Post('direct')
  @Idempotent()
  @ApiOperation({ summary: 'Open the direct room with a user (200 when it exists)' })
  @ApiSuccess(RoomView, {
    status: 201,
    also: [200],
    envelope: true,
    description: 'Direct room created (200: existing)',
  })
  @ApiErrors(401, 413, 415, 422, 503)
  async direct(
    @Body() dto: DirectRoomDto,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Envelope<RoomView>> {
    const { created, room } = await this.rooms.direct(dto.user_id, user);
    res.status(created ? 201 : 200);
    return envelope(created ? 'Room created' : 'Room found', room);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one room' })
  @ApiSuccess(RoomView, { envelope: true })
  @ApiErrors(401, 404, 422)
  async get(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room', await this.rooms.get(params.id, user));
  }

  @Post(':id/messages')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ summary: 'Post a message to a room' })
  @ApiSuccess(MessageView, { status: 201, envelope: true })
  @ApiErrors(401, 404, 409, 413, 415, 422)
  async postMessage(
    @Param() params: RoomIdParams,
    @Body() dto: CreateMessageDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<MessageView>> {
    return envelope('Message sent', await this.rooms.postMessage(params.id, dto, user));
  }

  @Get(':id/messages')
  @ApiOperation({ summary: "A room's messages (cursor)" })
  @ApiSuccess(MessageView, { list: 'page', envelope: true })
  @ApiErrors(401, 404, 422)
  async listMessages(
    @Param() params: RoomIdParams,
    @Query() query: ListMessagesQuery,
    @Req() req: Request,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<Page<MessageView>>> {
    return envelope('Messages', await this.rooms.listMessages(params.id, query, req, user));
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a room read up to now' })
  @ApiSuccess(RoomView, { envelope: true })
  @ApiErrors(401, 404, 422)
  async markRead(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room marked read', await this.rooms.markRead(params.id, user));
  }

  @Post(':id/members')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add members to a room' })
  @ApiSuccess(RoomView, { envelope: true })
  @ApiErrors(401, 403, 404, 409, 413, 415, 422, 503)
  async addMembers(
    @Param() params: RoomIdParams,
    @Body() dto: AddMembersDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Members added', await this.rooms.addMembers(params.id, dto, user));
  }

  @Delete(':id/members/:user_id')
  @ApiOperation({ summary: 'Remove a member from a room' })
  @ApiSuccess(RoomView, { envelope: true })
  @ApiErrors(401, 403, 404, 409, 422)
  async removeMember(
    @Param() params: RoomMemberParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Member removed', await this.rooms.removeMember(params.id, params.user_id, user));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivate a room' })
  @ApiSuccess(RoomView, { envelope: true })
  @ApiErrors(401, 403, 404, 422)
  async deactivate(
    @Param() params: RoomIdParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Room deactivated', await this.rooms.deactivate(params.id, user));
  }
}
