import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EmailDigest } from './dto/settings.dto';

/** A user's timezone, quiet hours and digest (docs/api/contract.md §7.3); no row: the defaults. */
@Entity({ name: 'notification_settings' })
export class NotificationSettings {
  @PrimaryColumn({ name: 'recipient_id', type: 'uuid' })
  recipientId!: string;

  @Column({ type: 'text' })
  timezone!: string;

  /** `HH:MM` local; both set or both null. */
  @Column({ name: 'quiet_start', type: 'text', nullable: true })
  quietStart!: string | null;

  @Column({ name: 'quiet_end', type: 'text', nullable: true })
  quietEnd!: string | null;

  @Column({ name: 'email_digest', type: 'text' })
  emailDigest!: EmailDigest;

  @Column({ name: 'digest_time', type: 'text' })
  digestTime!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
