import { ApiProperty } from '@nestjs/swagger';

/** One event type an endpoint may subscribe to. */
export class WebhookEventTypeResponse {
  @ApiProperty({ example: 'assignment.task.claimed' }) type!: string;
  @ApiProperty() description!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "JSON Schema of the event's `data`",
  })
  schema!: Record<string, unknown>;
}
