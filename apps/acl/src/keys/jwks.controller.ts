import { Controller, Get, Header, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, Public, RequirePermissions } from '@media/platform';
import { JwksResponse, RotationResponse } from './dto/keys.response';
import type { PublicJwk, RotationResult } from './key.view';
import { SigningKeys } from './signing-keys.service';

/** `GET /acl/.well-known/jwks.json`: the public keys every app verifies tokens with (docs/api/contract.md §1). */
@ApiTags('auth')
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(SigningKeys) private readonly keys: SigningKeys) {}

  /** Served from memory; verifiers cache it for max-age and refresh it on an unknown kid. */
  @Public()
  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'The RS256 public keys tokens are verified with (JWKS)' })
  @ApiSuccess(JwksResponse, { description: 'The published keys; cacheable for 5 minutes' })
  jwks(): { keys: PublicJwk[] } {
    return { keys: this.keys.publicKeys() };
  }
}

/** `POST /acl/api/v1/keys/rotate`: a new signing key; the previous ones retire after the grace period. */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/v1/keys')
export class KeysController {
  constructor(@Inject(SigningKeys) private readonly keys: SigningKeys) {}

  @Post('rotate')
  @HttpCode(201)
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'Rotate the signing key (the previous ones retire after a grace period)' })
  @ApiSuccess(RotationResponse, {
    status: 201,
    description: 'The new signing key and the keys it replaces',
  })
  @ApiErrors(401, [403, '`users:admin` is needed'])
  rotate(): Promise<RotationResult> {
    return this.keys.rotate();
  }
}
