import { Column, Entity } from 'typeorm';

/** Recent failed logins per email (known or not), for the growing delay. */
@Entity({ name: 'login_failures' })
export class LoginFailure {
  @Column({ type: 'text', primary: true })
  email!: string;

  @Column({ type: 'int' })
  failures!: number;

  @Column({ name: 'last_failed_at', type: 'timestamptz', precision: 3, nullable: true })
  lastFailedAt!: Date | null;

  /** While in the future, an attempt for this email is waiting or being checked. */
  @Column({ name: 'in_flight_until', type: 'timestamptz', precision: 3, nullable: true })
  inFlightUntil!: Date | null;
}
