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
  UseGuards,
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
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  CurrentUser,
  Multipart,
  RequirePermissions,
  UploadedFiles,
  type AuthUser,
  type UploadedFileInfo,
} from '@media/platform';
import type { Request, Response } from 'express';
import { DocumentsService } from './documents.service';
import { MultipartOnly } from './multipart-only.guard';
import {
  DocumentIdParams,
  DocumentPage,
  DocumentResponse,
  ErrorResponse,
  ListDocumentsQuery,
  UPLOAD_SCHEMA,
  UploadDocumentBody,
  ValidationErrorResponse,
} from './dto/document.dto';

const DOCUMENT_ID = { name: 'document_id', type: String, format: 'uuid', description: 'The document id.' };

const errors = {
  401: { status: 401, type: ErrorResponse, description: 'Missing, malformed or expired token.' },
  403: { status: 403, type: ErrorResponse, description: 'A permission or rule forbids it (`forbidden`).' },
  404: { status: 404, type: ErrorResponse, description: 'Unknown or deleted document (`not_found`).' },
  422: { status: 422, type: ValidationErrorResponse, description: 'Invalid path, query or body.' },
} as const;

@ApiTags('documents')
@ApiBearerAuth()
@ApiResponse(errors[401])
@Controller('api/v1/documents')
export class DocumentsController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @Post()
  @Multipart({ files: ['file'] })
  @UseGuards(MultipartOnly)
  @RequirePermissions(Permissions.documentsWrite)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_SCHEMA })
  @ApiCreatedResponse({ type: DocumentResponse, description: 'Stored; the record.' })
  @ApiResponse({ ...errors[403], description: 'Needs `documents:write`.' })
  @ApiResponse({ status: 413, type: ErrorResponse, description: 'Over UPLOAD_LIMIT (`payload_too_large`).' })
  @ApiResponse({
    status: 415,
    type: ErrorResponse,
    description: 'Not multipart/form-data (JSON and forms cannot carry a file).',
  })
  @ApiResponse({ ...errors[422], description: 'No `file` part, or more than one, at `["body","file"]`.' })
  upload(
    @Body() _body: UploadDocumentBody,
    @UploadedFiles() files: UploadedFileInfo[],
    @CurrentUser() caller: AuthUser,
  ): Promise<DocumentResponse> {
    return this.documents.upload(files, caller);
  }

  @Get()
  @ApiOkResponse({ type: DocumentPage, description: "The caller's documents, newest first (cursor list)." })
  @ApiResponse(errors[403])
  @ApiResponse(errors[422])
  list(@Query() query: ListDocumentsQuery, @CurrentUser() caller: AuthUser, @Req() req: Request) {
    return this.documents.list(query, caller, req);
  }

  @Get(':document_id')
  @ApiParam(DOCUMENT_ID)
  @ApiOkResponse({ type: DocumentResponse, description: 'The record; any valid token may read it.' })
  @ApiResponse(errors[404])
  @ApiResponse(errors[422])
  get(@Param() params: DocumentIdParams): Promise<DocumentResponse> {
    return this.documents.get(params.document_id);
  }

  @Get(':document_id/content')
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
  @ApiResponse(errors[404])
  @ApiResponse({
    status: 416,
    type: ErrorResponse,
    description: 'No byte of the range exists (`range_not_satisfiable`, `Content-Range: bytes */size`).',
  })
  @ApiResponse(errors[422])
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
  @ApiParam(DOCUMENT_ID)
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted; `documents.document.deleted` is published.' })
  @ApiResponse({ ...errors[403], description: 'Neither the uploader nor a holder of `documents:delete`.' })
  @ApiResponse({ ...errors[404], description: 'Unknown or already deleted.' })
  @ApiResponse(errors[422])
  async delete(@Param() params: DocumentIdParams, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.documents.delete(params.document_id, caller);
  }
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
