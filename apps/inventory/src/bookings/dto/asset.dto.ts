import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { IsName, Nullable } from '@media/kernel';
import { Given, IsText } from './fields';

/** `POST .../bookings/{order_id}/lines/{line_id}/assets` (docs/api/contract.md §4a). */
export class CreateAssetDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsText(1, 255)
  @IsName()
  name!: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'An existing document' })
  @Nullable()
  @IsUUID('all')
  document_id?: string | null;

  @ApiPropertyOptional({ type: String, minLength: 0, maxLength: 2000, nullable: true })
  @Nullable()
  @IsText(0, 2000)
  notes?: string | null;
}

/**
 * Updating a line's asset (docs/api/contract.md §4.5): any of `name`, `document_id` (null detaches), `notes` (null
 * clears); at least one.
 */
export class UpdateAssetDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @Given('name')
  @IsText(1, 255)
  @IsName()
  name?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An existing document; null detaches',
  })
  @Nullable()
  @IsUUID('all')
  document_id?: string | null;

  @ApiPropertyOptional({ type: String, minLength: 0, maxLength: 2000, nullable: true })
  @Nullable()
  @IsText(0, 2000)
  notes?: string | null;
}
