import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@media/platform';
import { AuthService } from './auth.service';
import { RefreshRequestDto, TokenRequestDto } from './dto/auth.dto';

@ApiTags('auth')
@Public()
@Controller('api/v1/auth')
export class AuthController {
  constructor(@Inject(AuthService) private readonly auth: AuthService) {}

  @Post('token')
  @HttpCode(200)
  token(@Body() dto: TokenRequestDto) {
    return this.auth.login(dto.email, dto.password);
  }

  @Post('refresh')
  @HttpCode(200)
  refresh(@Body() dto: RefreshRequestDto) {
    return this.auth.refresh(dto.refresh_token);
  }
}
