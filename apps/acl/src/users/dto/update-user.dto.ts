import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, IsUUID, ValidateIf } from 'class-validator';
import { Nullable } from '@media/kernel';
import { IsEmployeeNumber, IsNamePart, IsPhoneNumber } from './fields';

const given = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

/**
 * `PATCH /acl/api/v1/users/{id}`: any subset of these; absent fields are kept. Names cannot be
 * null; phone, employee number and manager can (null clears them). `roles` and `groups`
 * replace the user's whole set.
 */
export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 150 })
  @given('first_name')
  @IsNamePart()
  first_name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 150 })
  @given('last_name')
  @IsNamePart()
  last_name?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsPhoneNumber()
  phone_number?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsEmployeeNumber()
  employee_number?: string | null;

  @ApiPropertyOptional({
    enum: ['ACTIVE', 'DISABLED'],
    description: 'INVITED is reached only by an invitation',
  })
  @given('status')
  @IsIn(['ACTIVE', 'DISABLED'])
  status?: 'ACTIVE' | 'DISABLED';

  @ApiPropertyOptional({ type: [String] })
  @given('roles')
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  roles?: string[];

  @ApiPropertyOptional({ type: [String] })
  @given('groups')
  @IsArray()
  @ArrayMaxSize(200)
  @IsUUID('all', { each: true })
  groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Nullable()
  @IsUUID('all')
  manager_id?: string | null;
}
