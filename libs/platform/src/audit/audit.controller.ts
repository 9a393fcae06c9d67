import { Controller, Get, Inject, Query, Req, Res, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RequirePermissions, ApiErrors, ApiStreamed, ApiSuccess, envelope } from '@media/http';
import { AuditReader, type AuditVerification } from './audit-reader.service';
import { AuditEntryResponse, AuditVerificationResponse } from './dto/audit.response';
import { ExportAuditQuery, ListAuditQuery } from './dto/list-audit.query';

const EXPORT_EXAMPLE = [
  '{"id":"0b6f3c1e-6a43-4c39-9b2c-2f0c1d7a5e10","seq":1,"at":"2026-11-27T09:00:00.000Z","app":"assignment","action":"task.claimed","actor":{"type":"user","id":"8d1f2b7e-3c4a-4e5f-9a6b-7c8d9e0f1a2b","name":"Edna Editor"},"resource":{"type":"task","id":"5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716"},"request_id":"req-1","cause":null,"changes":{"status":["OPEN","CLAIMED"]},"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","hash":"9f2c…"}',
  '{"checkpoint":{"app":"assignment","seq":1,"hash":"9f2c…","at":"2026-11-27T09:01:00.000Z"},"jws":"eyJhbGciOiJSUzI1NiIsImtpZCI6Ii4uLiJ9.eyJ…"}',
].join('\n');

/**
 * `GET .../audit`, `.../audit/verify` and `.../audit/export` (CONTRACT §8.3), mounted in every
 * app by the platform: at `/<prefix>/api/v1/audit`, or `/api/v1/audit` in chat-notifications,
 * whose answers are enveloped (`enveloped`) as all of its answers are.
 */
export function auditControllerFor(enveloped: boolean): Type<unknown> {
  const path = enveloped ? 'v1/audit' : 'api/v1/audit';
  const wrap = <T>(message: string, data: T) => (enveloped ? envelope(message, data) : data);

  @ApiTags('audit')
  @ApiBearerAuth()
  @Controller(path)
  class AuditController {
    constructor(@Inject(AuditReader) private readonly reader: AuditReader) {}

    @Get()
    @RequirePermissions(Permissions.auditRead)
    @ApiOperation({ summary: "The app's sealed audit entries, newest first (cursor)" })
    @ApiSuccess(AuditEntryResponse, { list: 'page', envelope: enveloped })
    @ApiErrors(401, 403, 422)
    async list(@Query() query: ListAuditQuery, @Req() req: Request): Promise<unknown> {
      return wrap('Audit entries', await this.reader.list(query, req));
    }

    @Get('verify')
    @RequirePermissions(Permissions.auditRead)
    @ApiOperation({
      summary: 'Verify the whole chain: every hash and link, every checkpoint and its signature',
    })
    @ApiSuccess(AuditVerificationResponse, {
      envelope: enveloped,
      description:
        'What the walk found. A walk longer than 10 s answers at once and sends a space every 10 s ' +
        'until its JSON (leading whitespace, valid JSON), so no proxy cuts it as silent',
    })
    @ApiErrors(401, 403, [503, "acl's audit keys could not be fetched to check a checkpoint's signature"])
    async verify(@Res() res: Response): Promise<void> {
      await this.reader.fetchKeys();
      // A long walk answers 200 at once and a space every heartbeat until its JSON is ready.
      const heartbeat = setInterval(() => {
        if (!res.headersSent) res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
        res.write(' ');
      }, this.reader.heartbeatMs);
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      let verification: AuditVerification;
      try {
        verification = await this.reader.verify(gone.signal);
      } catch (error) {
        // The caller went away: there is no one to answer.
        if (gone.signal.aborted) return;
        if (!res.headersSent) throw error;
        // The answer has begun: a failure can only cut it short.
        res.destroy(error instanceof Error ? error : undefined);
        return;
      } finally {
        clearInterval(heartbeat);
      }
      const body = wrap('Audit chain verified', verification);
      if (res.headersSent) res.end(JSON.stringify(body));
      else res.status(200).json(body);
    }

    @Get('export')
    @RequirePermissions(Permissions.auditRead)
    @ApiOperation({
      summary: 'Export the chain as NDJSON: entries in seq order, each checkpoint after its entry',
    })
    @ApiStreamed(
      'application/x-ndjson',
      'One JSON value per line: each sealed entry exactly as listed, and each checkpoint as ' +
        '`{"checkpoint":{app,seq,hash,at},"jws"}` right after the entry whose seq it carries (the ' +
        'checkpoint just before the first entry exported, when there is one, comes first)',
      EXPORT_EXAMPLE,
    )
    @ApiErrors(401, 403, 422)
    async export(@Query() query: ExportAuditQuery, @Res() res: Response): Promise<void> {
      this.reader.checkRange(query);
      const lines = this.reader.exportLines(query);
      // The first line read before answering: a failure to start is still an error answer.
      const first = await lines.next();
      res.status(200);
      res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      async function* all(): AsyncGenerator<string> {
        if (!first.done) yield first.value;
        yield* lines;
      }
      // pipeline waits for `drain` whenever the client reads slower than the database answers.
      await pipeline(Readable.from(all()), res).catch((error: unknown) => {
        // Headers are gone: a failure mid-stream can only cut the answer short.
        res.destroy(error instanceof Error ? error : undefined);
      });
    }
  }
  return AuditController;
}
