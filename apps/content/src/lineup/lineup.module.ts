import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BroadcastSchedule } from './broadcast-schedule.entity';
import { Directory } from './directory.service';
import { LineupController } from './lineup.controller';
import { LineupService } from './lineup.service';
import { Slot, SlotAsset } from './slot.entity';

@Module({
  imports: [TypeOrmModule.forFeature([BroadcastSchedule, Slot, SlotAsset])],
  controllers: [LineupController],
  providers: [LineupService, Directory],
})
export class LineupModule {}
