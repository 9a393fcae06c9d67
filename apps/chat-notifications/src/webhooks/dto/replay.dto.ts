import { ApiProperty } from '@nestjs/swagger';
import type { ReplayWebhookRequest } from '@media/contracts';
import { IsDateTime } from '@media/kernel';

/** `POST /api/v1/webhooks/endpoints/{id}/replay`. */
export class ReplayDto implements ReplayWebhookRequest {
  @ApiProperty({
    format: 'date-time',
    description: 'Every matching event that occurred since then is delivered again.',
  })
  @IsDateTime()
  since!: string;
}
