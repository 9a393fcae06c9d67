import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiSuccess, CurrentUser, envelope, type Envelope } from '@media/http';
import type { AuthUser } from '@media/core';
import { SettingsDto } from './dto/settings.dto';
import { SettingsResponse } from './dto/settings.response';
import type { SettingsView } from './settings.view';
import { SettingsService } from './settings.service';

/** Timezone, quiet hours and daily digest of the caller (docs/api/contract.md §7.3). */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('v1/notifications/settings')
export class SettingsController {
  constructor(@Inject(SettingsService) private readonly settings: SettingsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's notification settings (defaults until set)" })
  @ApiSuccess(SettingsResponse, { envelope: true })
  @ApiErrors(401)
  async get(@CurrentUser() user: AuthUser): Promise<Envelope<SettingsView>> {
    return envelope('Notification settings', await this.settings.get(user));
  }

  @Put()
  @ApiOperation({ summary: "Replace the caller's notification settings (a missing field takes its default)" })
  @ApiSuccess(SettingsResponse, { envelope: true })
  @ApiErrors(401, 413, 415, 422)
  async replace(@Body() dto: SettingsDto, @CurrentUser() user: AuthUser): Promise<Envelope<SettingsView>> {
    return envelope('Notification settings updated', await this.settings.replace(dto, user));
  }
}
