import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateIdentity1764000000000 } from '../database/migrations/1764000000000-create-identity';
import { GroupsModule } from '../groups/groups.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UserAccountsService } from './user-accounts.service';
import { UserDirectoryService } from './user-directory.service';
import { UserProfilesService } from './user-profiles.service';
import { UserRole } from './user-role.entity';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRpc } from './users.rpc';
import { UsersService } from './users.service';
import { AuditTrailAcl1764900000110 } from '../database/migrations/1764900000110-audit-trail';

/** Users and the roles they hold (`users`, `user_roles`): the HTTP API, the NATS profiles, sign-in records. */
@Feature({
  entities: [User, UserRole],
  migrations: [CreateIdentity1764000000000, AuditTrailAcl1764900000110],
})
@Module({
  imports: [TypeOrmModule.forFeature([User, UserRole]), GroupsModule, SessionsModule],
  controllers: [UsersController, UsersRpc],
  providers: [UsersService, UserDirectoryService, UserAccountsService, UserProfilesService],
  exports: [UserDirectoryService, UserAccountsService],
})
export class UsersModule {}
