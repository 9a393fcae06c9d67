import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsCleanText, IsName, Nullable, Trim } from '@media/kernel';
import { PageQuery } from '@media/http';

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 2000;

/** `POST /content/api/v1/story-categories` and `PUT .../{id}` (the whole category). */
export class CreateStoryCategoryDto {
  @ApiProperty({ minLength: 1, maxLength: NAME_MAX, description: 'Trimmed; unique case-insensitively' })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(NAME_MAX)
  @IsCleanText()
  @IsName()
  name!: string;

  @ApiPropertyOptional({ type: String, maxLength: DESCRIPTION_MAX, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  @IsCleanText()
  description?: string | null;
}

/** `PATCH .../story-categories/{id}`: any of the fields; absent ones are kept, `description` may be null. */
export class UpdateStoryCategoryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: NAME_MAX })
  @ValidateIf((o: Record<string, unknown>) => o.name !== undefined)
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(NAME_MAX)
  @IsCleanText()
  @IsName()
  name?: string;

  @ApiPropertyOptional({ type: String, maxLength: DESCRIPTION_MAX, nullable: true })
  @Nullable()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  @IsCleanText()
  description?: string | null;
}

export class StoryCategoryIdParams {
  @IsUUID('all')
  id!: string;
}

/** `GET .../story-categories`: by name in byte order, then id. */
export class ListStoryCategoriesQuery extends PageQuery {}
