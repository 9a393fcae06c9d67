import { Module } from '@nestjs/common';
import { PlansController } from './plans.controller';
import { PlansService } from './plans.service';
import { Feature } from '@media/platform';
import { CommissionPlan } from './plan.entity';
import { CreateCommissions1764200000000 } from '../database/migrations/1764200000000-create-commissions';

@Feature({ entities: [CommissionPlan], migrations: [CreateCommissions1764200000000] })
@Module({ controllers: [PlansController], providers: [PlansService] })
export class PlansModule {}
