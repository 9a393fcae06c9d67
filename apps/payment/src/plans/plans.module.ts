import { Module } from '@nestjs/common';
import { PlansController } from './plans.controller';
import { PlansService } from './plans.service';
import { Feature } from '@media/platform';
import { CommissionPlan } from './plan.entity';
import { CreateCommissions1764200000000 } from '../database/migrations/1764200000000-create-commissions';
import { AuditTrailPayment1764900000110 } from '../database/migrations/1764900000110-audit-trail';

@Feature({
  entities: [CommissionPlan],
  migrations: [CreateCommissions1764200000000, AuditTrailPayment1764900000110],
})
@Module({ controllers: [PlansController], providers: [PlansService] })
export class PlansModule {}
