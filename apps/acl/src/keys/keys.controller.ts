import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/http';
import { RotationResponse } from './dto/keys.response';
import type { RotationResult } from './key.view';
import { SigningKeysService } from './signing-keys.service';

/** `POST /acl/api/v1/keys/rotate`: a new signing key (key-rules.ts); the previous ones retire after the grace period. */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/v1/keys')
export class KeysController {
  constructor(@Inject(SigningKeysService) private readonly keys: SigningKeysService) {}

  @Post('rotate')
  @HttpCode(201)
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({
    summary: 'Rotate the signing key: published now, signing once every replica publishes it',
  })
  @ApiSuccess(RotationResponse, {
    status: 201,
    description: 'The new signing key, when it starts signing, the keys it replaces and those unpublished',
  })
  @ApiErrors(
    401,
    [403, '`users:admin` is needed'],
    [
      429,
      'Rotated less than a minute ago, or JWKS_MAX_KEYS would unpublish a key whose tokens may be valid (`rate_limited`, Retry-After)',
    ],
  )
  rotate(): Promise<RotationResult> {
    return this.keys.rotate();
  }
}
