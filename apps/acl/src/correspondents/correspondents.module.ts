import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { CorrespondentsController } from './correspondents.controller';
import { CorrespondentsService } from './correspondents.service';
import { Invitation } from './invitation.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Invitation]), UsersModule],
  controllers: [CorrespondentsController],
  providers: [CorrespondentsService],
})
export class CorrespondentsModule {}
