import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Group, GroupMember } from './group.entity';
import { GroupsController } from './groups.controller';
import { GroupsService } from './groups.service';
import { Feature } from '@media/platform';
import { CreateIdentity1764000000000 } from '../database/migrations/1764000000000-create-identity';

@Feature({ entities: [Group, GroupMember], migrations: [CreateIdentity1764000000000] })
@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupMember])],
  controllers: [GroupsController],
  providers: [GroupsService],
})
export class GroupsModule {}
