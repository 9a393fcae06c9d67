import { ApiProperty, ApiPropertyOptional, type ApiBodyOptions } from '@nestjs/swagger';

import { IsUUID } from 'class-validator';
import { Optional } from '@media/kernel';
import { PageQuery } from '@media/http';

type BodySchema = Extract<ApiBodyOptions, { schema: unknown }>['schema'];

/** `POST /documents/api/v1/documents` (multipart/form-data): one part named `file`. */
export class UploadDocumentDto {}

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
