import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '@media/kernel';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `cursor` and `page_size` of every cursor list (docs/api/contract.md §3); list queries extend it. */
export class PageQuery {
  @ApiPropertyOptional({ description: 'Opaque cursor from `next` or `previous`.' })
  @Optional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  page_size?: number;
}

/** A page of a cursor list. */
export interface Page<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}
