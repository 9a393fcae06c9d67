import { ApiProperty } from '@nestjs/swagger';

/** A websocket ticket (`POST /api/v1/ws/tickets`). */
export class TicketResponse {
  @ApiProperty({ description: 'Pass as `?ticket=` on the websocket upgrade; single use.' }) ticket!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
