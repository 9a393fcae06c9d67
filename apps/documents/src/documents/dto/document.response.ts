import { ApiProperty } from '@nestjs/swagger';
import type { DocumentRecord } from '@media/contracts';

/** A document's record (docs/api/contract.md §4.11). */
export class DocumentResponse implements DocumentRecord {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ description: "The client's base name, control characters removed, at most 255 characters." })
  filename!: string;

  @ApiProperty({ example: 'application/pdf' })
  content_type!: string;

  @ApiProperty({ description: 'Bytes.' })
  size!: number;

  @ApiProperty({ description: 'Lowercase hex SHA-256 of the content.', pattern: '^[0-9a-f]{64}$' })
  sha256!: string;

  @ApiProperty({ format: 'uuid', description: "The uploader's user id." })
  uploaded_by!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
