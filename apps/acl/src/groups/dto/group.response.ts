import { ApiProperty } from '@nestjs/swagger';
import type { GroupView, MembershipView } from '../group.view';

export class GroupResponse implements GroupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ minimum: 0 }) member_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** One user's membership of one group. */
export class MembershipResponse implements MembershipView {
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}
