import { ApiProperty } from '@nestjs/swagger';

/** One event's delivery to one endpoint. */
export class WebhookMessageResponse {
  @ApiProperty({ format: 'uuid', description: "The event's id: the `webhook-id` of every attempt" })
  id!: string;
  @ApiProperty({ example: 'assignment.task.claimed' }) type!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status!: 'pending' | 'delivered' | 'failed';
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) last_status_code!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** How many messages a replay queued again. */
export class WebhookReplayResponse {
  @ApiProperty({ example: 12 }) messages!: number;
}
