import {
  Controller,
  Delete,
  Head,
  Inject,
  Options,
  Param,
  Patch,
  Post,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  ApiErrors,
  ApiNoContent,
  CurrentUser,
  Idempotent,
  RequirePermissions,
  StreamedBody,
  type ErrorStatus,
} from '@media/http';
import { InjectConfig } from '@media/kernel';
import { publicOrigin, UnsupportedMediaType, type AuthUser } from '@media/core';
import type { Request, Response } from 'express';
import type { DocumentsConfig } from '../config';
import { UploadIdParams } from './dto/upload.params';
import {
  byteCount,
  BadTusRequest,
  parseChecksum,
  requireTusVersion,
  TUS_CHECKSUM_ALGORITHMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
} from './tus-headers';
import { UploadsService, type UploadStatus } from './uploads.service';

const CHUNK_TYPE = 'application/offset+octet-stream';
const UPLOAD_ID = { name: 'upload_id', type: String, format: 'uuid', description: "The upload's id." };
const TUS_RESUMABLE = {
  name: 'Tus-Resumable',
  required: true,
  description: `The protocol version, \`${TUS_VERSION}\` (another is 412).`,
};
const UNKNOWN: ErrorStatus = [404, 'No upload of the caller with this id (`not_found`).'];
const VERSION: ErrorStatus = [412, 'Tus-Resumable missing or not 1.0.0 (`precondition_failed`).'];
const INVALID: ErrorStatus = [422, 'The upload id is not a uuid.'];

const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * Resumable uploads, tus 1.0.0 with creation, creation-with-upload, termination, expiration and
 * checksum (docs/api/documents.md). Chunks are streamed from the request to storage.
 */
@ApiTags('uploads')
@ApiBearerAuth()
@Controller('api/v1/uploads')
// `Tus-Resumable` on every answer past authentication, errors included (tus 1.0).
@UseInterceptors({
  intercept: (context, next) => {
    context.switchToHttp().getResponse<Response>().setHeader('Tus-Resumable', TUS_VERSION);
    return next.handle();
  },
})
export class UploadsController {
  constructor(
    @Inject(UploadsService) private readonly uploads: UploadsService,
    @InjectConfig() private readonly config: DocumentsConfig,
  ) {}

  @Options()
  @ApiOperation({ summary: 'What the tus server supports' })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiNoContent(
    'Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size (TUS_MAX_SIZE) and Tus-Checksum-Algorithm.',
  )
  @ApiErrors(401, [403, 'Needs `documents:write`.'])
  discover(@Res() res: Response): void {
    res
      .status(204)
      .set({
        'Tus-Version': TUS_VERSION,
        'Tus-Extension': TUS_EXTENSIONS,
        'Tus-Max-Size': String(this.config.tus.maxSize),
        'Tus-Checksum-Algorithm': TUS_CHECKSUM_ALGORITHMS.join(','),
      })
      .end();
  }

  @Post()
  @Idempotent()
  @StreamedBody(CHUNK_TYPE)
  @ApiOperation({ summary: 'Create a resumable upload (tus creation, creation-with-upload)' })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({
    name: 'Upload-Length',
    required: true,
    description: 'The file size in bytes (≤ Tus-Max-Size).',
  })
  @ApiHeader({
    name: 'Upload-Metadata',
    required: false,
    description: '`filename` and `content_type` (or `filetype`), each `key base64value`, comma-separated.',
  })
  @ApiHeader({
    name: 'Upload-Checksum',
    required: false,
    description: 'Of a first chunk sent with the creation.',
  })
  @ApiNoContent(
    'Created: `Location` (the upload URL), `Upload-Expires`, and `Upload-Offset` when a first chunk came with it.',
    201,
  )
  @ApiErrors(
    [400, 'Upload-Length missing or malformed, Upload-Defer-Length, bad Upload-Metadata (`bad_request`).'],
    401,
    [403, 'Needs `documents:write`.'],
    VERSION,
    [413, 'Upload-Length over Tus-Max-Size (`payload_too_large`).'],
    [460, 'The first chunk does not match Upload-Checksum (`checksum_mismatch`); the upload exists.'],
  )
  async create(@Req() req: Request, @Res() res: Response, @CurrentUser() caller: AuthUser): Promise<void> {
    requireTusVersion(header(req, 'tus-resumable'));
    if (header(req, 'upload-defer-length') !== undefined) {
      throw new BadTusRequest('Upload-Defer-Length is not supported: send Upload-Length.');
    }
    const length = byteCount('Upload-Length', header(req, 'upload-length'));
    const checksum = parseChecksum(header(req, 'upload-checksum'));
    let status = await this.uploads.create(length, header(req, 'upload-metadata'), caller);
    res.setHeader(
      'Location',
      `${publicOrigin(req)}${req.baseUrl}${req.path.replace(/\/$/, '')}/${status.id}`,
    );
    res.setHeader('Upload-Expires', status.expiresAt!.toUTCString());
    if (this.carriesChunk(req) || length === 0) {
      status = await this.chunk(req, res, status.id, 0, checksum, caller);
      res.setHeader('Upload-Offset', String(status.offset));
    }
    res.status(201).end();
  }

  @Head(':upload_id')
  @ApiOperation({ summary: "A resumable upload's offset" })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiNoContent(
    'Upload-Offset, Upload-Length, Upload-Expires (until complete), Upload-Metadata, Cache-Control: no-store.',
    200,
  )
  @ApiErrors(401, [403, 'Needs `documents:write`.'], UNKNOWN, VERSION, INVALID)
  async head(
    @Param() params: UploadIdParams,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() caller: AuthUser,
  ): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    requireTusVersion(header(req, 'tus-resumable'));
    const status = await this.uploads.status(params.upload_id, caller);
    res.set(statusHeaders(status));
    if (status.metadata) res.setHeader('Upload-Metadata', status.metadata);
    res.status(200).end();
  }

  @Patch(':upload_id')
  @StreamedBody(CHUNK_TYPE)
  @ApiOperation({ summary: 'Send a chunk of a resumable upload' })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({ name: 'Upload-Offset', required: true, description: 'The offset HEAD reported.' })
  @ApiHeader({
    name: 'Upload-Checksum',
    required: false,
    description: '`sha1` or `sha256` and the base64 digest of this chunk.',
  })
  @ApiNoContent('Stored: the new Upload-Offset; at Upload-Length the document exists, with the upload id.')
  @ApiErrors(
    [400, 'The chunk passes Upload-Length, or a malformed header (`bad_request`).'],
    401,
    [403, 'Needs `documents:write`.'],
    UNKNOWN,
    [
      409,
      'Upload-Offset is not the offset (`offset_mismatch`), or a chunk is running (`upload_in_progress`).',
    ],
    VERSION,
    [415, 'Not application/offset+octet-stream.'],
    INVALID,
    [460, 'The chunk does not match Upload-Checksum (`checksum_mismatch`); it was discarded.'],
  )
  async patch(
    @Param() params: UploadIdParams,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() caller: AuthUser,
  ): Promise<void> {
    requireTusVersion(header(req, 'tus-resumable'));
    if (!this.carriesChunk(req)) {
      const type = (header(req, 'content-type') ?? '').split(';')[0].trim();
      throw new UnsupportedMediaType(type || 'none', [CHUNK_TYPE]);
    }
    const offset = byteCount('Upload-Offset', header(req, 'upload-offset'));
    const checksum = parseChecksum(header(req, 'upload-checksum'));
    const status = await this.chunk(req, res, params.upload_id, offset, checksum, caller);
    res.status(204).set(statusHeaders(status)).end();
  }

  @Delete(':upload_id')
  @ApiOperation({ summary: 'Terminate a resumable upload (its bytes are removed)' })
  @RequirePermissions(Permissions.documentsWrite)
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiNoContent('Terminated.')
  @ApiErrors(
    401,
    [403, 'Needs `documents:write`.'],
    UNKNOWN,
    [409, 'A chunk is running (`upload_in_progress`).'],
    VERSION,
    INVALID,
  )
  async terminate(
    @Param() params: UploadIdParams,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() caller: AuthUser,
  ): Promise<void> {
    requireTusVersion(header(req, 'tus-resumable'));
    await this.uploads.terminate(params.upload_id, caller);
    res.status(204).end();
  }

  private carriesChunk(req: Request): boolean {
    return (header(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase() === CHUNK_TYPE;
  }

  /**
   * Streams the request's body into the upload. Once the body has been read whole, the
   * connection stays open for the next chunk (the platform closes it after an unread body).
   */
  private async chunk(
    req: Request,
    res: Response,
    id: string,
    offset: number,
    checksum: ReturnType<typeof parseChecksum>,
    caller: AuthUser,
  ): Promise<UploadStatus> {
    const declared = header(req, 'content-length');
    try {
      const outcome = await this.uploads.write(
        id,
        {
          body: req,
          offset,
          contentLength: declared === undefined ? undefined : byteCount('Content-Length', declared),
          checksum,
        },
        caller,
      );
      return outcome.status;
    } finally {
      if (req.complete) res.removeHeader('Connection');
    }
  }
}

function statusHeaders(status: UploadStatus): Record<string, string> {
  const headers: Record<string, string> = {
    'Upload-Offset': String(status.offset),
    'Upload-Length': String(status.length),
  };
  if (status.expiresAt) headers['Upload-Expires'] = status.expiresAt.toUTCString();
  return headers;
}
