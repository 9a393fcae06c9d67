import { ApiProperty } from '@nestjs/swagger';

/** A webhook endpoint; its secret is never shown after create and rotate-secret. */
export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: [String], example: ['assignment.task.claimed'] }) event_types!: string[];
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ type: String, nullable: true, example: null }) disabled_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** The answer to create and rotate-secret: the endpoint with its signing secret, shown only here. */
export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: '`whsec_` + base64 of 32 random bytes',
  })
  secret!: string;
}
