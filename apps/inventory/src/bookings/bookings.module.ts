import { Module } from '@nestjs/common';
import { AssetsService } from './assets.service';
import { BookingsController } from './bookings.controller';
import { BookingsService } from './bookings.service';
import { DocumentEvents } from './document-events';

@Module({
  controllers: [BookingsController],
  providers: [BookingsService, AssetsService, DocumentEvents],
})
export class BookingsModule {}
