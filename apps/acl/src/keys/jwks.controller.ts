import { Controller, Get, Header, HttpCode, Inject, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { Public, RequirePermissions } from '@media/platform';
import type { PublicJwk, RotationResult } from './key.view';
import { SigningKeys } from './signing-keys.service';

/** `GET /acl/.well-known/jwks.json`: the public keys every app verifies tokens with (CONTRACT §1). */
@ApiTags('auth')
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(SigningKeys) private readonly keys: SigningKeys) {}

  /** Served from memory; verifiers cache it for max-age and refresh it on an unknown kid. */
  @Public()
  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOkResponse({ description: 'The published RS256 public keys: `{keys: [{kty, n, e, kid, alg, use}]}`' })
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
  @ApiCreatedResponse({
    description: '`{kid, retiring: [{kid, retires_at}]}`: the new signing key and the keys it replaces',
  })
  @ApiUnauthorizedResponse({ description: 'not_authenticated, token_invalid or token_expired' })
  @ApiForbiddenResponse({ description: 'forbidden: users:admin is needed' })
  rotate(): Promise<RotationResult> {
    return this.keys.rotate();
  }
}
