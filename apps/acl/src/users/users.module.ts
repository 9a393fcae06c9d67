import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserDirectory } from './user-directory.service';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';
import { Feature } from '@media/platform';
import { CreateIdentity1764000000000 } from '../database/migrations/1764000000000-create-identity';

@Feature({ entities: [User], migrations: [CreateIdentity1764000000000] })
@Module({
  imports: [TypeOrmModule.forFeature([User])],
  controllers: [UsersController],
  providers: [UsersService, UserDirectory],
  exports: [UserDirectory],
})
export class UsersModule {}
