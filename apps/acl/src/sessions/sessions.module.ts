import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';
import { RefreshSessionStart1764000000005 } from '../database/migrations/1764000000005-refresh-session-start';
import { TokenVersions1764000000006 } from '../database/migrations/1764000000006-token-versions';
import { RefreshToken } from './refresh-token.entity';
import { RefreshTokensService } from './refresh-tokens.service';
import { SessionRetentionService } from './session-retention.service';
import { sessionRetentionWorker } from './session-retention.worker';
import { SessionsController } from './sessions.controller';
import { SessionsRpc } from './sessions.rpc';
import { TokenVersionsService } from './token-versions.service';

/**
 * Sessions: the refresh-token families a login starts, and the token versions that end them
 * (revocation). A feature of its own so that auth, which signs in through users, and users and
 * groups, which end sessions when they take something away, all depend on it without depending
 * on each other.
 */
@Feature({
  entities: [RefreshToken],
  migrations: [CreateCredentials1764000000002, RefreshSessionStart1764000000005, TokenVersions1764000000006],
})
@Module({
  imports: [TypeOrmModule.forFeature([RefreshToken])],
  controllers: [SessionsController, SessionsRpc],
  providers: [RefreshTokensService, TokenVersionsService, SessionRetentionService, sessionRetentionWorker],
  exports: [RefreshTokensService, TokenVersionsService],
})
export class SessionsModule {}
