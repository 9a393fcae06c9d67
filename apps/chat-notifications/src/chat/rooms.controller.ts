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
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Multipart, type AuthUser, type Page } from '@media/platform';
import type { Request, Response } from 'express';
import { ApiEnvelope, envelope, type Envelope } from '../common/envelope';
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
import { MessageView, RoomView } from './dto/room.views';
import { RoomsService } from './rooms.service';

/** Chat rooms, members and messages (CONTRACT §4.1); every success is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class RoomsController {
  constructor(@Inject(RoomsService) private readonly rooms: RoomsService) {}

  /** Seed endpoint 1. */
  @Post()
  @HttpCode(201)
  @Multipart()
  @ApiEnvelope(201, RoomView, { errors: [403, 413, 415, 503], description: 'Room created' })
  async create(@Body() dto: CreateRoomDto, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room created', await this.rooms.create(dto, user));
  }

  @Get()
  @ApiEnvelope(200, RoomView, { list: true })
  async list(
    @Query() query: ListRoomsQuery,
    @Req() req: Request,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<Page<RoomView>>> {
    return envelope('Rooms', await this.rooms.list(query, req, user));
  }

  /** 201 with a new DIRECT room, 200 with the pair's existing one. */
  @Post('direct')
  @ApiEnvelope(201, RoomView, {
    alsoOk: [200],
    errors: [503],
    description: 'Direct room created (200: existing)',
  })
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
  @ApiEnvelope(200, RoomView, { errors: [404] })
  async get(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room', await this.rooms.get(params.id, user));
  }

  @Post(':id/messages')
  @HttpCode(201)
  @ApiEnvelope(201, MessageView, { errors: [404, 409] })
  async postMessage(
    @Param() params: RoomIdParams,
    @Body() dto: CreateMessageDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<MessageView>> {
    return envelope('Message sent', await this.rooms.postMessage(params.id, dto, user));
  }

  @Get(':id/messages')
  @ApiEnvelope(200, MessageView, { list: true, errors: [404] })
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
  @ApiEnvelope(200, RoomView, { errors: [404] })
  async markRead(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room marked read', await this.rooms.markRead(params.id, user));
  }

  @Post(':id/members')
  @HttpCode(200)
  @ApiEnvelope(200, RoomView, { errors: [403, 404, 409, 503] })
  async addMembers(
    @Param() params: RoomIdParams,
    @Body() dto: AddMembersDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Members added', await this.rooms.addMembers(params.id, dto, user));
  }

  @Delete(':id/members/:user_id')
  @ApiEnvelope(200, RoomView, { errors: [403, 404, 409] })
  async removeMember(
    @Param() params: RoomMemberParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Member removed', await this.rooms.removeMember(params.id, params.user_id, user));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @ApiEnvelope(200, RoomView, { errors: [403, 404] })
  async deactivate(
    @Param() params: RoomIdParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Room deactivated', await this.rooms.deactivate(params.id, user));
  }
}
