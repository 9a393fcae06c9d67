import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiSuccess, Public } from '@media/http';
import type { AuditKeysView } from './audit-keys.view';
import { CheckpointSignerService } from './checkpoint-signer.service';
import { AuditKeysResponse } from './dto/audit-keys.response';

/** `GET /acl/.well-known/audit-keys.json`: the keys audit checkpoints are verified with (CONTRACT §8.2). */
@ApiTags('audit')
@Controller('.well-known')
export class AuditKeysController {
  constructor(@Inject(CheckpointSignerService) private readonly signer: CheckpointSignerService) {}

  /**
   * Keys are only ever added (when one first signs, before its checkpoint exists), so a cached
   * copy stays right for every checkpoint it knows; a verifier meeting an unknown kid refetches.
   */
  @Public()
  @Get('audit-keys.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Every RS256 key that ever signed an audit checkpoint, retired ones included (JWKS)',
  })
  @ApiSuccess(AuditKeysResponse, { description: 'The keys; cacheable for 5 minutes' })
  auditKeys(): Promise<AuditKeysView> {
    return this.signer.auditKeys();
  }
}
