import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An external HTTP endpoint the system's events are delivered to (docs/api/webhooks.md). */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes!: string[];

  @Column({ type: 'boolean' })
  disabled!: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  /** The signing secret, sealed with WEBHOOK_SECRETS_KEY (see SecretBox); never shown again. */
  @Column({ name: 'secret_sealed', type: 'text', select: false })
  secretSealed!: string;

  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true, select: false })
  previousSecretSealed!: string | null;

  @Column({ name: 'previous_secret_until', type: 'timestamptz', precision: 3, nullable: true })
  previousSecretUntil!: Date | null;

  /** Since when every delivery failed (null once one succeeds). */
  @Column({ name: 'failing_since', type: 'timestamptz', precision: 3, nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
