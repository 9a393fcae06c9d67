import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiNoContent, CurrentUser, Idempotent } from '@media/http';
import { Forbidden, hasPermission, type AuthUser } from '@media/core';
import { isFormBody, validateDto } from '@media/kernel';
import { RevokeRequestDto } from './dto/revoke.dto';
import { TokenVersionsService } from './token-versions.service';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/v1/auth')
export class SessionsController {
  constructor(@Inject(TokenVersionsService) private readonly versions: TokenVersionsService) {}

  /**
   * Ends every token of the caller (no body) or of `user_id` (`users:admin`, even for one's own
   * id): access tokens are refused everywhere within seconds, refresh tokens at once.
   * The body is read here rather than by the pipe, so a caller without `users:admin` naming a
   * user gets its 403 before any 422 (docs/api/contract.md §1 order).
   */
  @Post('revoke')
  @HttpCode(204)
  @Idempotent()
  @ApiOperation({ summary: 'Revoke every token of the caller, or of a user (users:admin)' })
  @ApiBody({ type: RevokeRequestDto, required: false })
  @ApiNoContent('Revoked: older access tokens answer 401 token_revoked within 5 s')
  @ApiErrors(401, [403, 'A user_id without users:admin'], [404, 'Unknown user'], 413, 415, 422)
  async revoke(@CurrentUser() caller: AuthUser, @Body() body: unknown): Promise<void> {
    const named = typeof body === 'object' && body !== null && !Array.isArray(body) && 'user_id' in body;
    if (named && !hasPermission(caller, Permissions.usersAdmin))
      throw new Forbidden(`Requires the permission ${Permissions.usersAdmin}.`);
    const dto = await validateDto(RevokeRequestDto, body ?? {}, ['body'], isFormBody(body));
    await this.versions.revoke(dto.user_id ?? caller.id);
  }
}
