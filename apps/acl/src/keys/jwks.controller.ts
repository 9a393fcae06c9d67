import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiSuccess, Public } from '@media/http';
import { JwksResponse } from './dto/keys.response';
import type { PublicJwk } from './key.view';
import { SigningKeysService } from './signing-keys.service';

/** `GET /acl/.well-known/jwks.json`: the public keys every app verifies tokens with (docs/api/contract.md §1). */
@ApiTags('auth')
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(SigningKeysService) private readonly keys: SigningKeysService) {}

  /** Served from memory; verifiers cache it for max-age and refresh it on an unknown kid. */
  @Public()
  @Get('jwks.json')
  // JWKS_MAX_AGE_MS (key-rules.ts): how long after a key stops signing it may be unpublished.
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'The RS256 public keys tokens are verified with (JWKS)' })
  @ApiSuccess(JwksResponse, { description: 'The published keys; cacheable for 5 minutes' })
  jwks(): { keys: PublicJwk[] } {
    return { keys: this.keys.publicKeys() };
  }
}
