import { ApiProperty } from '@nestjs/swagger';
import type { UserStatus } from '@media/contracts';
import { USER_STATUSES } from '../user.entity';
import type { UserView } from '../user.view';

/** A user as `/acl/api/v1/users` answers it (never credentials). */
export class UserResponse implements UserView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ description: '`"first last"`; the email while the user has no name' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) first_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) last_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) phone_number!: string | null;
  @ApiProperty({ type: String, nullable: true }) employee_number!: string | null;
  @ApiProperty({ enum: [...USER_STATUSES] }) status!: UserStatus;
  @ApiProperty({ type: [String], description: 'Role codes, byte order' }) roles!: string[];
  @ApiProperty({ type: [String], format: 'uuid', description: 'Group ids' }) groups!: string[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) manager_id!: string | null;
  @ApiProperty({ format: 'date-time' }) date_joined!: string;
}
