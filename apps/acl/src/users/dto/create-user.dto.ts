import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID } from 'class-validator';
import { IsDateTime } from '@media/platform';
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
  @IsOptional()
  @IsPhoneNumber()
  phone_number?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Unique when set' })
  @IsOptional()
  @IsEmployeeNumber()
  employee_number?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'Role codes, e.g. EDITOR' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  roles?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Group ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsUUID('all', { each: true })
  groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  manager_id?: string | null;

  @ApiPropertyOptional({ format: 'date-time', description: 'For imports; defaults to now' })
  @IsOptional()
  @IsDateTime()
  date_joined?: string;
}
