import { Module } from '@nestjs/common';
import { GrowthController } from './growth.controller';
import { GrowthService } from './growth.service';
import { Feature } from '@media/platform';
import { CreateUserJoinDays1764000000003 } from '../database/migrations/1764000000003-create-user-join-days';

@Feature({ migrations: [CreateUserJoinDays1764000000003] })
@Module({
  controllers: [GrowthController],
  providers: [GrowthService],
})
export class AnalyticsModule {}
