import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@media/platform';
import { SigningKeys } from './signing-keys.service';

/** `GET /acl/.well-known/jwks.json`: the public keys every app verifies tokens with (CONTRACT §1). */
@ApiTags('auth')
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(SigningKeys) private readonly keys: SigningKeys) {}

  @Public()
  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  async jwks() {
    return { keys: await this.keys.publicKeys() };
  }
}
