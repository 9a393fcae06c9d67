import { ApiProperty } from '@nestjs/swagger';
import type { ClientView } from '@media/contracts';

export class ClientResponse implements ClientView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
