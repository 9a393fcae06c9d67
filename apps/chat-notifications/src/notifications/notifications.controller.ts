import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiErrors, ApiSuccess, CurrentUser, envelope, type Envelope, Multipart } from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { ListNotificationsQuery, NotificationIdParams, PreferenceItemDto } from './dto/notification.dto';
import {
  InboxPageResponse,
  NotificationResponse,
  PreferencesResponse,
  ReadAllResponse,
} from './dto/notification.response';
import { InboxService } from './inbox.service';
import type { InboxPage, NotificationView, PreferencesView, ReadAllView } from './notifications.view';
import { PreferencesService } from './preferences.service';

/** Preferences and the inbox. */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('v1/notifications')
export class NotificationsController {
  constructor(
    @Inject(PreferencesService) private readonly preferences: PreferencesService,
    @Inject(InboxService) private readonly inbox: InboxService,
  ) {}

  /** Sets preferences: one object or a list of 1..100; the caller's whole list comes back. */
  @Put('preferences')
  @HttpCode(200)
  @Multipart()
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(PreferenceItemDto) },
        { type: 'array', minItems: 1, maxItems: 100, items: { $ref: getSchemaPath(PreferenceItemDto) } },
      ],
    },
  })
  @ApiOperation({ summary: "Set the caller's notification preferences" })
  @ApiExtraModels(PreferenceItemDto)
  @ApiSuccess(PreferencesResponse, { envelope: true, description: "The caller's whole list" })
  @ApiErrors(401, 413, 415, 422)
  async update(@Body() body: unknown, @CurrentUser() user: AuthUser): Promise<Envelope<PreferencesView>> {
    return envelope('Preferences updated', await this.preferences.upsert(body, user));
  }

  @Get('preferences')
  @ApiOperation({ summary: "The caller's notification preferences" })
  @ApiSuccess(PreferencesResponse, { envelope: true })
  @ApiErrors(401)
  async getPreferences(@CurrentUser() user: AuthUser): Promise<Envelope<PreferencesView>> {
    return envelope('Preferences', await this.preferences.list(user));
  }

  /** The inbox, newest first; `data` also carries the caller's `unread_count`. */
  @Get()
  @ApiOperation({ summary: "The caller's inbox, newest first (cursor)" })
  @ApiSuccess(InboxPageResponse, { envelope: true })
  @ApiErrors(401, 422)
  async list(
    @Query() query: ListNotificationsQuery,
    @Req() req: Request,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<InboxPage>> {
    return envelope('Notifications', await this.inbox.list(query, req, user));
  }

  @Post('read-all')
  @HttpCode(200)
  @ApiOperation({ summary: "Mark all the caller's notifications read" })
  @ApiSuccess(ReadAllResponse, { envelope: true })
  @ApiErrors(401)
  async readAll(@CurrentUser() user: AuthUser): Promise<Envelope<ReadAllView>> {
    return envelope('Notifications marked read', await this.inbox.readAll(user));
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a notification read' })
  @ApiSuccess(NotificationResponse, { envelope: true })
  @ApiErrors(401, 404, 422)
  async markRead(
    @Param() params: NotificationIdParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<NotificationView>> {
    return envelope('Notification marked read', await this.inbox.markRead(params.id, user));
  }

  @Post(':id/archive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive a notification' })
  @ApiSuccess(NotificationResponse, { envelope: true })
  @ApiErrors(401, 404, 422)
  async archive(
    @Param() params: NotificationIdParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<NotificationView>> {
    return envelope('Notification archived', await this.inbox.archive(params.id, user));
  }
}
