import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUUID } from 'class-validator';
import { IsDateTime, Nullable, Optional } from '@media/kernel';
import { IsPassword } from '../../credentials/password-rule';
import { IsEmployeeNumber, IsNamePart, IsPhoneNumber, IsUserEmail } from './fields';

/** `POST /acl/api/v1/users` (docs/api/contract.md §4a). */
export class CreateUserDto {
  @ApiProperty({ format: 'email' })
  @IsUserEmail()
  email!: string;

  @ApiProperty({ description: '12 to 72 bytes of UTF-8', format: 'password' })
  @IsPassword()
  password!: string;

  @ApiProperty({ minLength: 1, maxLength: 150 })
  @IsNamePart()
  first_name!: string;

  @ApiProperty({ minLength: 1, maxLength: 150 })
  @IsNamePart()
  last_name!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsPhoneNumber()
  phone_number?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Unique when set' })
  @Nullable()
  @IsEmployeeNumber()
  employee_number?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'Role codes, e.g. EDITOR' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  roles?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Group ids' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsUUID('all', { each: true })
  groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Nullable()
  @IsUUID('all')
  manager_id?: string | null;

  @ApiPropertyOptional({ format: 'date-time', description: 'For imports; defaults to now' })
  @Optional()
  @IsDateTime()
  date_joined?: string;
}
