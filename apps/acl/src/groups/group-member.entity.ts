import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A user's membership of a group. */
@Entity({ name: 'group_members' })
export class GroupMember {
  @PrimaryColumn({ name: 'group_id', type: 'uuid' })
  groupId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
