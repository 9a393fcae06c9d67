import { ApiProperty } from '@nestjs/swagger';
import type { SettingsView } from '../settings.view';
import { EMAIL_DIGESTS, type EmailDigest } from './settings.dto';

export class QuietHoursResponse {
  @ApiProperty({ example: '22:00' }) start!: string;
  @ApiProperty({ example: '07:00' }) end!: string;
}

/** The caller's notification settings (docs/api/contract.md §7.3). */
export class SettingsResponse implements SettingsView {
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ type: QuietHoursResponse, nullable: true }) quiet_hours!: QuietHoursResponse | null;
  @ApiProperty({ enum: EMAIL_DIGESTS }) email_digest!: EmailDigest;
  @ApiProperty({ example: '08:00' }) digest_time!: string;
}
