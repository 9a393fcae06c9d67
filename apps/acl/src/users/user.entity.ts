import type { UserStatus } from '@media/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const USER_STATUSES: readonly UserStatus[] = ['INVITED', 'ACTIVE', 'DISABLED'];

/** A person who can (or, once invited, will) sign in. The password hash never leaves this table. */
@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Stored lowercased: emails are compared case-insensitively. */
  @Column({ type: 'text' })
  email!: string;

  /** Never selected unless asked for: only the login path reads it. */
  @Column({ name: 'password_hash', type: 'text', nullable: true, select: false })
  passwordHash?: string | null;

  @Column({ name: 'first_name', type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'employee_number', type: 'text', nullable: true })
  employeeNumber!: string | null;

  @Column({ type: 'text', default: 'ACTIVE' })
  status!: UserStatus;

  @Column({ name: 'date_joined', type: 'timestamptz', precision: 3 })
  dateJoined!: Date;

  @Column({ name: 'manager_id', type: 'uuid', nullable: true })
  managerId!: string | null;

  @Column({ name: 'last_login', type: 'timestamptz', precision: 3, nullable: true })
  lastLogin!: Date | null;

  /** Access tokens carry it as `ver`; raising it revokes every token issued before (sessions). */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
