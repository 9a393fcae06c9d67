import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Role } from './role.entity';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';
import { Feature } from '@media/platform';
import { CreateIdentity1764000000000 } from '../database/migrations/1764000000000-create-identity';
import { SeedRoles1764000000001 } from '../database/migrations/1764000000001-seed-roles';
import { SeedAuditorRole1764900000200 } from '../database/migrations/1764900000200-seed-auditor-role';

@Feature({
  entities: [Role],
  migrations: [CreateIdentity1764000000000, SeedRoles1764000000001, SeedAuditorRole1764900000200],
})
@Module({
  imports: [TypeOrmModule.forFeature([Role])],
  controllers: [RolesController],
  providers: [RolesService],
})
export class RolesModule {}
