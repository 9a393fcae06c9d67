import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

/**
 * `POST /acl/api/v1/auth/token`. Only presence is checked here: a malformed email or a password
 * of the wrong length is simply a wrong credential (401), so the form tells nothing.
 */
export class TokenRequestDto {
  @ApiProperty({ format: 'email' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  email!: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password!: string;
}

/** `POST /acl/api/v1/auth/refresh`. */
export class RefreshRequestDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token!: string;
}
