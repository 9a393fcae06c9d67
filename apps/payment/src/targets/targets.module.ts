import { Module } from '@nestjs/common';
import { TargetsController } from './targets.controller';
import { TargetsService } from './targets.service';
import { Feature } from '@media/platform';
import { CommissionTarget } from './target.entity';
import { CreateCommissions1764200000000 } from '../database/migrations/1764200000000-create-commissions';

@Feature({ entities: [CommissionTarget], migrations: [CreateCommissions1764200000000] })
@Module({ controllers: [TargetsController], providers: [TargetsService] })
export class TargetsModule {}
