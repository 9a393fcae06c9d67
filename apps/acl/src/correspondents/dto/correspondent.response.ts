import { ApiProperty } from '@nestjs/swagger';
import type { UserStatus } from '@media/contracts';
import type { CorrespondentView, InvitedCorrespondentView } from '../correspondent.view';

const STATUSES: UserStatus[] = ['INVITED', 'ACTIVE', 'DISABLED'];

/** The Correspondent resource of the seed. */
export class CorrespondentResponse implements CorrespondentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: '`"first last"`; the email while the correspondent has no name' })
  name!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ type: String, nullable: true }) first_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) last_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) phone_number!: string | null;
  @ApiProperty({ enum: STATUSES }) status!: UserStatus;
  @ApiProperty({ format: 'date-time' }) date_joined!: string;
}

export class InvitationResponse {
  @ApiProperty({ description: 'Single use; shown only now' }) token!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

export class InvitedCorrespondentResponse extends CorrespondentResponse implements InvitedCorrespondentView {
  @ApiProperty({ type: InvitationResponse }) invitation!: InvitationResponse;
}
