import { Module } from '@nestjs/common';
import { AssetsService } from './assets.service';
import { BookingsController } from './bookings.controller';
import { BookingsService } from './bookings.service';
import { Feature } from '@media/platform';
import { Booking } from './booking.entity';
import { BookingLine } from './booking-line.entity';
import { LineAsset } from './line-asset.entity';
import { CreateBookings1764100000000 } from '../database/migrations/1764100000000-create-bookings';
import { AuditTrailInventory1764900000110 } from '../database/migrations/1764900000110-audit-trail';

@Feature({
  entities: [Booking, BookingLine, LineAsset],
  migrations: [CreateBookings1764100000000, AuditTrailInventory1764900000110],
})
@Module({
  controllers: [BookingsController],
  providers: [BookingsService, AssetsService],
})
export class BookingsModule {}
