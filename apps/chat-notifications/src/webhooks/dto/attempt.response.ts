import { ApiProperty } from '@nestjs/swagger';

/** One attempt to deliver a message, with what the endpoint answered. */
export class WebhookAttemptResponse {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null when no answer came (timeout, refused)' })
  status_code!: number | null;
  @ApiProperty() duration_ms!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ description: 'At most the first 1 KiB of the answer' }) response_body!: string;
}
