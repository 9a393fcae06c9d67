import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, ValidateIf } from 'class-validator';

/** The claim's body (JSON only). `user_id` defaults to the caller. */
export class ClaimTaskDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Who claims: the caller when left out; another user needs `tasks:assign`.',
  })
  @ValidateIf((o: ClaimTaskDto) => o.user_id !== undefined)
  @IsUUID('all')
  user_id?: string;
}
