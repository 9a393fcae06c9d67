import { Module } from '@nestjs/common';
import { RevenueController } from './revenue.controller';
import { RevenueService } from './revenue.service';
import { Feature } from '@media/platform';
import { CreateRevenueDays1764100000001 } from '../database/migrations/1764100000001-create-revenue-days';

@Feature({ migrations: [CreateRevenueDays1764100000001] })
@Module({ controllers: [RevenueController], providers: [RevenueService] })
export class RevenueModule {}
