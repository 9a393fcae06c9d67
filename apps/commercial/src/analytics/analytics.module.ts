import { Module } from '@nestjs/common';
import { TopClientsController } from './top-clients.controller';
import { TopClientsService } from './top-clients.service';

@Module({
  controllers: [TopClientsController],
  providers: [TopClientsService],
})
export class AnalyticsModule {}
