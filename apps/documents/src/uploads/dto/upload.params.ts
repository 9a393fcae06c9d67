import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class UploadIdParams {
  @ApiProperty({ format: 'uuid', description: "The upload's id (the document's, once complete)." })
  @IsUUID('all')
  upload_id!: string;
}
