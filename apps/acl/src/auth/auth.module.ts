import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeysModule } from '../keys/keys.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { LoginFailure, RefreshToken } from './refresh-token.entity';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';
import { LoginInFlight1764000000004 } from '../database/migrations/1764000000004-login-in-flight';
import { RefreshSessionStart1764000000005 } from '../database/migrations/1764000000005-refresh-session-start';

@Feature({
  entities: [RefreshToken, LoginFailure],
  migrations: [CreateCredentials1764000000002, LoginInFlight1764000000004, RefreshSessionStart1764000000005],
})
@Module({
  imports: [TypeOrmModule.forFeature([RefreshToken, LoginFailure]), KeysModule, UsersModule],
  controllers: [AuthController],
  providers: [AuthService],
})
export class AuthModule {}
