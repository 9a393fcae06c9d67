import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BroadcastSchedule } from './broadcast-schedule.entity';
import { LineupController } from './lineup.controller';
import { LineupService } from './lineup.service';
import { Slot } from './slot.entity';
import { SlotAsset } from './slot-asset.entity';
import { Feature } from '@media/platform';
import { CreateLineup1764100000000 } from '../database/migrations/1764100000000-create-lineup';
import { AuditTrailContent1764900000110 } from '../database/migrations/1764900000110-audit-trail';

@Feature({
  entities: [BroadcastSchedule, Slot, SlotAsset],
  migrations: [CreateLineup1764100000000, AuditTrailContent1764900000110],
})
@Module({
  imports: [TypeOrmModule.forFeature([BroadcastSchedule, Slot, SlotAsset])],
  controllers: [LineupController],
  providers: [LineupService],
})
export class LineupModule {}
