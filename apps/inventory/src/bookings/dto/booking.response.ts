import { ApiProperty } from '@nestjs/swagger';
import { BOOKING_PLATFORMS, BOOKING_STATUSES } from '@media/contracts';

/** Swagger schemas of inventory's bodies (the types are in @media/contracts). */
export class LineAssetResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) line_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) document_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) notes!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class BookingLineResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: BOOKING_PLATFORMS }) platform!: string;
  @ApiProperty() category!: string;
  @ApiProperty() channel!: string;
  @ApiProperty({ format: 'date' }) start_date!: string;
  @ApiProperty({ format: 'date' }) end_date!: string;
  @ApiProperty() spots!: number;
  @ApiProperty({ example: '1250.00' }) rate_card_amount!: string;
  @ApiProperty({ example: '1000.00' }) booked_amount!: string;
  @ApiProperty({ type: [LineAssetResponse] }) assets!: LineAssetResponse[];
}

export class BookingTotalsResponse {
  @ApiProperty({ example: '1250.00' }) rate_card_amount!: string;
  @ApiProperty({ example: '1000.00' }) booked_amount!: string;
}

export class BookingSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() reference!: string;
  @ApiProperty() client_name!: string;
  @ApiProperty({ type: String, nullable: true }) agency!: string | null;
  @ApiProperty({ enum: BOOKING_STATUSES }) status!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ format: 'uuid' }) created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: BookingTotalsResponse }) totals!: BookingTotalsResponse;
}

export class BookingResponse extends BookingSummaryResponse {
  @ApiProperty({ type: [BookingLineResponse] }) lines!: BookingLineResponse[];
}
