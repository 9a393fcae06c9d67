import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Logger,
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
  ApiHeader,
  ApiParam,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permissions, type DocumentRecord } from '@media/contracts';
import {
  Idempotent,
  ApiBinary,
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  CurrentUser,
  Multipart,
  RequirePermissions,
  UploadedFiles,
  type ErrorStatus,
  type Page,
  type UploadedFileInfo,
} from '@media/http';
import { DomainError, type AuthUser } from '@media/core';
import type { Request, Response } from 'express';
import { DocumentsService } from './documents.service';
import { contentDisposition } from './download';
import { DocumentIdParams, ListDocumentsQuery, UPLOAD_SCHEMA, UploadDocumentDto } from './dto/document.dto';
import { DocumentResponse } from './dto/document.response';
import { sendContent } from './send-content';

const DOCUMENT_ID = { name: 'document_id', type: String, format: 'uuid', description: 'The document id.' };

const UNKNOWN: ErrorStatus = [404, 'Unknown or deleted document (`not_found`).'];
const INVALID: ErrorStatus = [422, 'Invalid path, query or body.'];

@ApiTags('documents')
@ApiBearerAuth()
@Controller('api/v1/documents')
export class DocumentsController {
  private readonly logger = new Logger('Documents');

  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Upload a document (multipart, one file)' })
  @Multipart({ files: ['file'], only: true })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_SCHEMA })
  @ApiSuccess(DocumentResponse, { status: 201, description: 'Stored; the record.' })
  @ApiErrors(
    401,
    [403, 'Needs `documents:write`.'],
    [413, 'Over UPLOAD_LIMIT (`payload_too_large`).'],
    [415, 'Not multipart/form-data (JSON and forms cannot carry a file).'],
    [422, 'No `file` part, or more than one, at `["body","file"]`.'],
  )
  upload(
    @Body() _body: UploadDocumentDto,
    @UploadedFiles() files: UploadedFileInfo[],
    @CurrentUser() caller: AuthUser,
  ): Promise<DocumentResponse> {
    return this.documents.upload(files, caller);
  }

  @Get()
  @ApiOperation({ summary: "List the caller's documents (cursor)" })
  @ApiSuccess(DocumentResponse, {
    list: 'page',
    description: "The caller's documents, newest first (cursor list).",
  })
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
  @ApiSuccess(DocumentResponse, { description: 'The record; any valid token may read it.' })
  @ApiErrors(401, UNKNOWN, INVALID)
  get(@Param() params: DocumentIdParams): Promise<DocumentResponse> {
    return this.documents.get(params.document_id);
  }

  @Get(':document_id/content')
  @ApiOperation({ summary: "Download a document's content (Range, If-None-Match)" })
  @ApiParam(DOCUMENT_ID)
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
  @ApiBinary('The content, with ETag, Content-Disposition: attachment and X-Content-Type-Options: nosniff.')
  @ApiBinary('The requested range, with Content-Range.', 206)
  @ApiNoContent('`If-None-Match` matched the ETag; no body.', 304)
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
    const { document, etag } = download;
    if (download.kind === 'unsatisfiable') {
      throw new DomainError(
        416,
        'range_not_satisfiable',
        `The range is outside the document's ${document.size} bytes.`,
        { 'Content-Range': `bytes */${document.size}` },
      );
    }
    const headers: Record<string, string> = {
      ETag: etag,
      'Cache-Control': 'private, no-cache',
      'Accept-Ranges': 'bytes',
      'Content-Disposition': contentDisposition(document.filename),
      'X-Content-Type-Options': 'nosniff',
    };
    if (download.kind === 'not-modified') return void res.status(304).set(headers).end();
    const { range } = download;
    headers['Content-Type'] = document.contentType;
    headers['Content-Length'] = String(range ? range.end - range.start + 1 : document.size);
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${document.size}`;
    res.status(range ? 206 : 200).set(headers);
    if (!download.body) return void res.end();
    await sendContent(download.body, res, (error) =>
      this.logger.error(
        { err: error, document_id: document.id },
        'Reading the stored file failed mid-download: the answer was cut short',
      ),
    );
  }

  @Delete(':document_id')
  @ApiOperation({ summary: 'Delete a document' })
  @ApiParam(DOCUMENT_ID)
  @HttpCode(204)
  @ApiNoContent('Deleted; `documents.document.deleted` is published.')
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
