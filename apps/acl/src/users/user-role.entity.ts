import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A role held by a user. */
@Entity({ name: 'user_roles' })
export class UserRole {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @PrimaryColumn({ name: 'role_code', type: 'text' })
  roleCode!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
