import { Body, Controller, Header, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiSuccess, Public } from '@media/http';
import { AuthService } from './auth.service';
import type { TokenPair } from './auth.view';
import { RefreshRequestDto, TokenRequestDto } from './dto/auth.dto';
import { TokenPairResponse } from './dto/token.response';

/** Token answers are never cached (RFC 6749 §5.1: `Cache-Control: no-store`, `Pragma: no-cache`). */
@ApiTags('auth')
@Public()
@Controller('api/v1/auth')
export class AuthController {
  constructor(@Inject(AuthService) private readonly auth: AuthService) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({ summary: 'Log in with email and password' })
  @ApiSuccess(TokenPairResponse)
  @ApiErrors([401, 'Wrong email or password (`invalid_credentials`)'], 413, 415, 422, [
    429,
    'Another login of this account is being checked (`rate_limited`, Retry-After)',
  ])
  token(@Body() dto: TokenRequestDto): Promise<TokenPair> {
    return this.auth.login(dto.email, dto.password);
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({ summary: 'Trade a refresh token for a new token pair' })
  @ApiSuccess(TokenPairResponse)
  @ApiErrors([401, 'Invalid, expired or already used refresh token (`token_invalid`)'], 413, 415, 422)
  refresh(@Body() dto: RefreshRequestDto): Promise<TokenPair> {
    return this.auth.refresh(dto.refresh_token);
  }
}
