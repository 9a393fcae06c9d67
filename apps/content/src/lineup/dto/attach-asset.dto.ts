import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** `POST /content/api/v1/lineup/slots/{slot_id}/assets` (attach a document to a slot). */
export class AttachAssetDto {
  @ApiProperty({ format: 'uuid', description: 'An existing, not deleted document' })
  @IsUUID('all')
  document_id!: string;
}
