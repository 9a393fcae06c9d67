import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { Nullable, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';
import type { UserStatus } from '@media/contracts';
import { USER_STATUSES } from '../../users/user.entity';
import { IsPassword } from '../../credentials/password-rule';
import { IsNamePart, IsPhoneNumber, IsUserEmail } from '../../users/dto/fields';

/** `GET /acl/api/v1/auth/correspondents/invite` (the correspondent list): newest first, optionally by status. */
export class ListCorrespondentsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: USER_STATUSES })
  @Optional()
  @IsIn(USER_STATUSES)
  status?: UserStatus;
}

/** `POST /acl/api/v1/auth/correspondents/invite` (docs/api/contract.md §4a). */
export class InviteCorrespondentDto {
  @ApiProperty({ format: 'email' })
  @IsUserEmail()
  email!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsNamePart()
  first_name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsNamePart()
  last_name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Nullable()
  @IsPhoneNumber()
  phone_number?: string | null;
}

/** `POST /acl/api/v1/auth/invitations/{token}/accept`. */
export class AcceptInvitationDto {
  @ApiProperty({ description: '12 to 72 bytes of UTF-8', format: 'password' })
  @IsPassword()
  password!: string;
}

export class InvitationTokenParams {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token!: string;
}
