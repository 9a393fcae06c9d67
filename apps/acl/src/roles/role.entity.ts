import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A named set of permissions (seeded: CONTRACT §1). */
@Entity({ name: 'roles' })
export class Role {
  @PrimaryColumn({ type: 'text' })
  code!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', array: true })
  permissions!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}

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
