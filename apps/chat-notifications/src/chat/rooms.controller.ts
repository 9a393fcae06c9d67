import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  envelope,
  Idempotent,
  Multipart,
  type Envelope,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request, Response } from 'express';
import { CreateRoomDto } from './dto/create-room.dto';
import { DirectRoomDto } from './dto/direct-room.dto';
import { ListRoomsQuery } from './dto/list-rooms.query';
import { RoomIdParams } from './dto/room-id.params';
import { RoomResponse } from './dto/room.response';
import type { RoomView } from './room.view';
import { RoomsService } from './rooms.service';

/** Chat rooms (docs/api/contract.md §4.1); every success is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class RoomsController {
  constructor(@Inject(RoomsService) private readonly rooms: RoomsService) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @Multipart()
  @ApiOperation({ summary: 'Create a room' })
  @ApiSuccess(RoomResponse, { status: 201, envelope: true, description: 'Room created' })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  async create(@Body() dto: CreateRoomDto, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room created', await this.rooms.create(dto, user));
  }

  @Get()
  @ApiOperation({ summary: "The caller's rooms (cursor)" })
  @ApiSuccess(RoomResponse, { list: 'page', envelope: true })
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
  @ApiSuccess(RoomResponse, {
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
  @ApiSuccess(RoomResponse, { envelope: true })
  @ApiErrors(401, 404, 422)
  async get(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room', await this.rooms.get(params.id, user));
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a room read up to now' })
  @ApiSuccess(RoomResponse, { envelope: true })
  @ApiErrors(401, 404, 422)
  async markRead(@Param() params: RoomIdParams, @CurrentUser() user: AuthUser): Promise<Envelope<RoomView>> {
    return envelope('Room marked read', await this.rooms.markRead(params.id, user));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivate a room' })
  @ApiSuccess(RoomResponse, { envelope: true })
  @ApiErrors(401, 403, 404, 422)
  async deactivate(
    @Param() params: RoomIdParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Room deactivated', await this.rooms.deactivate(params.id, user));
  }
}
