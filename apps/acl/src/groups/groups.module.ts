import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateIdentity1764000000000 } from '../database/migrations/1764000000000-create-identity';
import { SessionsModule } from '../sessions/sessions.module';
import { GroupMember } from './group-member.entity';
import { GroupMembershipsService } from './group-memberships.service';
import { Group } from './group.entity';
import { GroupsController } from './groups.controller';
import { GroupsRpc } from './groups.rpc';
import { GroupsService } from './groups.service';

@Feature({ entities: [Group, GroupMember], migrations: [CreateIdentity1764000000000] })
@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupMember]), SessionsModule],
  controllers: [GroupsController, GroupsRpc],
  providers: [GroupsService, GroupMembershipsService],
  exports: [GroupMembershipsService],
})
export class GroupsModule {}
