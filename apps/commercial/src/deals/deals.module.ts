import { Module } from '@nestjs/common';
import { DealsController } from './deals.controller';
import { DealsService } from './deals.service';
import { Feature } from '@media/platform';
import { Deal } from './deal.entity';
import { CreateSales1764100000000 } from '../database/migrations/1764100000000-create-sales';

@Feature({ entities: [Deal], migrations: [CreateSales1764100000000] })
@Module({
  controllers: [DealsController],
  providers: [DealsService],
})
export class DealsModule {}
