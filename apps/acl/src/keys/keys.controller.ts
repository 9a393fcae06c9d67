import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/platform';
import { RotationResponse } from './dto/keys.response';
import type { RotationResult } from './key.view';
import { SigningKeysService } from './signing-keys.service';

/** `POST /acl/api/v1/keys/rotate`: a new signing key; the previous ones retire after the grace period. */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/v1/keys')
export class KeysController {
  constructor(@Inject(SigningKeysService) private readonly keys: SigningKeysService) {}

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
