import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsName } from '@media/kernel';
import { PageQuery } from '@media/http';

const trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** `POST /commercial/api/v1/clients` (docs/api/contract.md §4a). */
export class CreateClientDto {
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'Unique as written' })
  @trim()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @IsName()
  name!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  category!: string;
}

/** `GET /commercial/api/v1/clients`: by name (byte order), then id. */
export class ListClientsQuery extends PageQuery {}
