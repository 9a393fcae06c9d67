import { Module } from '@nestjs/common';
import { TopClientsController } from './top-clients.controller';
import { TopClientsService } from './top-clients.service';
import { Feature } from '@media/platform';

/** Owns no table. */
@Feature({})
@Module({
  controllers: [TopClientsController],
  providers: [TopClientsService],
})
export class AnalyticsModule {}
