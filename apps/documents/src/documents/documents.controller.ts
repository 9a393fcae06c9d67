import { pipeline } from 'node:stream/promises';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiParam,
  ApiProduces,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Permissions, type DocumentRecord } from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  CurrentUser,
  Multipart,
  RequirePermissions,
  UploadedFiles,
  type AuthUser,
  type ErrorStatus,
  type Page,
  type UploadedFileInfo,
} from '@media/platform';
import type { Request, Response } from 'express';
import { DocumentsService } from './documents.service';
import {
  DocumentIdParams,
  DocumentPage,
  DocumentResponse,
  ListDocumentsQuery,
  UPLOAD_SCHEMA,
  UploadDocumentBody,
} from './dto/document.dto';

const DOCUMENT_ID = { name: 'document_id', type: String, format: 'uuid', description: 'The document id.' };

const UNKNOWN: ErrorStatus = [404, 'Unknown or deleted document (`not_found`).'];
const INVALID: ErrorStatus = [422, 'Invalid path, query or body.'];

@ApiTags('documents')
@ApiBearerAuth()
@Controller('api/v1/documents')
export class DocumentsController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Upload a document (multipart, one file)' })
  @Multipart({ files: ['file'], only: true })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_SCHEMA })
  @ApiCreatedResponse({ type: DocumentResponse, description: 'Stored; the record.' })
  @ApiErrors(
    401,
    [403, 'Needs `documents:write`.'],
    [413, 'Over UPLOAD_LIMIT (`payload_too_large`).'],
    [415, 'Not multipart/form-data (JSON and forms cannot carry a file).'],
    [422, 'No `file` part, or more than one, at `["body","file"]`.'],
  )
  upload(
    @Body() _body: UploadDocumentBody,
    @UploadedFiles() files: UploadedFileInfo[],
    @CurrentUser() caller: AuthUser,
  ): Promise<DocumentResponse> {
    return this.documents.upload(files, caller);
  }

  @Get()
  @ApiOperation({ summary: "List the caller's documents (cursor)" })
  @ApiOkResponse({ type: DocumentPage, description: "The caller's documents, newest first (cursor list)." })
  @ApiErrors(401, [403, "Another uploader's documents need `documents:delete`."], INVALID)
  list(
    @Query() query: ListDocumentsQuery,
    @CurrentUser() caller: AuthUser,
    @Req() req: Request,
  ): Promise<Page<DocumentRecord>> {
    return this.documents.list(query, caller, req);
  }

  @Get(':document_id')
  @ApiOperation({ summary: "Get a document's record" })
  @ApiParam(DOCUMENT_ID)
  @ApiOkResponse({ type: DocumentResponse, description: 'The record; any valid token may read it.' })
  @ApiErrors(401, UNKNOWN, INVALID)
  get(@Param() params: DocumentIdParams): Promise<DocumentResponse> {
    return this.documents.get(params.document_id);
  }

  @Get(':document_id/content')
  @ApiOperation({ summary: "Download a document's content (Range, If-None-Match)" })
  @ApiParam(DOCUMENT_ID)
  @ApiProduces('application/octet-stream')
  @ApiHeader({
    name: 'Range',
    required: false,
    description: 'One range, `bytes=start-end`, `bytes=start-` or `bytes=-suffix`.',
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'The ETag of a copy held: 304 when unchanged.',
  })
  @ApiHeader({ name: 'If-Range', required: false, description: 'The ETag the range belongs to.' })
  @ApiOkResponse({
    description:
      'The content, with ETag, Content-Disposition: attachment and X-Content-Type-Options: nosniff.',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiResponse({
    status: 206,
    description: 'The requested range, with Content-Range.',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiResponse({ status: 304, description: '`If-None-Match` matched the ETag; no body.' })
  @ApiErrors(
    401,
    UNKNOWN,
    [416, 'No byte of the range exists (`range_not_satisfiable`, `Content-Range: bytes */size`).'],
    INVALID,
  )
  async content(@Param() params: DocumentIdParams, @Req() req: Request, @Res() res: Response): Promise<void> {
    const download = await this.documents.download(params.document_id, {
      method: req.method,
      range: req.headers.range,
      ifRange: header(req, 'if-range'),
      ifNoneMatch: header(req, 'if-none-match'),
    });
    res.status(download.status).set(download.headers);
    if (!download.body) return void res.end();
    // A client that goes away mid-download destroys the source too (no leaked file handle).
    await pipeline(download.body, res).catch(() => undefined);
  }

  @Delete(':document_id')
  @ApiOperation({ summary: 'Delete a document' })
  @ApiParam(DOCUMENT_ID)
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted; `documents.document.deleted` is published.' })
  @ApiErrors(
    401,
    [403, 'Neither the uploader nor a holder of `documents:delete`.'],
    [404, 'Unknown or already deleted.'],
    INVALID,
  )
  async delete(@Param() params: DocumentIdParams, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.documents.delete(params.document_id, caller);
  }
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
