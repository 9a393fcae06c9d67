import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';
import { RefreshSessionStart1764000000005 } from '../database/migrations/1764000000005-refresh-session-start';
import { RefreshToken } from './refresh-token.entity';
import { RefreshTokensService } from './refresh-tokens.service';
import { SessionRetentionService } from './session-retention.service';

/**
 * Sessions: the refresh-token families a login starts. A feature of its own (no routes) so that
 * auth, which signs in through users, and users, which ends a disabled user's sessions, both
 * depend on it without depending on each other.
 */
@Feature({
  entities: [RefreshToken],
  migrations: [CreateCredentials1764000000002, RefreshSessionStart1764000000005],
})
@Module({
  imports: [TypeOrmModule.forFeature([RefreshToken])],
  providers: [RefreshTokensService, SessionRetentionService],
  exports: [RefreshTokensService],
})
export class SessionsModule {}
