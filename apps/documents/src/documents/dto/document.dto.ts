import { ApiProperty, ApiPropertyOptional, type ApiBodyOptions } from '@nestjs/swagger';

type BodySchema = Extract<ApiBodyOptions, { schema: unknown }>['schema'];

import { IsUUID } from 'class-validator';
import type { DocumentRecord } from '@media/contracts';
import { Optional, PageQuery } from '@media/platform';

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

/** A page of `GET /documents/api/v1/documents`. */
export class DocumentPage {
  @ApiProperty({ type: [DocumentResponse] })
  results!: DocumentResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'Absolute URL of the next page.' })
  next!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Absolute URL of the previous page.' })
  previous!: string | null;
}

/** `POST /documents/api/v1/documents` (multipart/form-data): one part named `file`. */
export class UploadDocumentBody {}

/** The multipart body as Swagger shows it. */
export const UPLOAD_SCHEMA: BodySchema = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'The file; exactly one.' } },
};

export class DocumentIdParams {
  @ApiProperty({ format: 'uuid', description: 'The document id.' })
  @IsUUID('all')
  document_id!: string;
}

/** `GET /documents/api/v1/documents`: the caller's documents, newest first. */
export class ListDocumentsQuery extends PageQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "Another uploader's documents; needs `documents:delete` unless it is the caller.",
  })
  @Optional()
  @IsUUID('all')
  uploaded_by?: string;
}
