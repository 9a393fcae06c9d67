import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BroadcastSchedule } from './broadcast-schedule.entity';
import { DirectoryService } from './directory.service';
import { LineupController } from './lineup.controller';
import { LineupService } from './lineup.service';
import { Slot } from './slot.entity';
import { SlotAsset } from './slot-asset.entity';
import { Feature } from '@media/platform';
import { CreateLineup1764100000000 } from '../database/migrations/1764100000000-create-lineup';

@Feature({ entities: [BroadcastSchedule, Slot, SlotAsset], migrations: [CreateLineup1764100000000] })
@Module({
  imports: [TypeOrmModule.forFeature([BroadcastSchedule, Slot, SlotAsset])],
  controllers: [LineupController],
  providers: [LineupService, DirectoryService],
})
export class LineupModule {}
