import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';
import { LoginInFlight1764000000004 } from '../database/migrations/1764000000004-login-in-flight';
import { KeysModule } from '../keys/keys.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { LoginFailure } from './login-failure.entity';

/** Sign-in and token refresh; the refresh tokens themselves belong to sessions. */
@Feature({
  entities: [LoginFailure],
  migrations: [CreateCredentials1764000000002, LoginInFlight1764000000004],
})
@Module({
  imports: [TypeOrmModule.forFeature([LoginFailure]), KeysModule, UsersModule, SessionsModule],
  controllers: [AuthController],
  providers: [AuthService],
})
export class AuthModule {}
