import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A named set of permissions (seeded: docs/api/contract.md §1). */
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
