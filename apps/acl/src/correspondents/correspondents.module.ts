import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { CorrespondentsController } from './correspondents.controller';
import { CorrespondentsService } from './correspondents.service';
import { Invitation } from './invitation.entity';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';

@Feature({ entities: [Invitation], migrations: [CreateCredentials1764000000002] })
@Module({
  imports: [TypeOrmModule.forFeature([Invitation]), UsersModule],
  controllers: [CorrespondentsController],
  providers: [CorrespondentsService],
})
export class CorrespondentsModule {}
