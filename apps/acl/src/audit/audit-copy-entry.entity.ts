import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One sealed audit entry of any app, as the AUDIT stream carried it (acl's merged copy). */
@Entity({ name: 'audit_all' })
export class AuditCopyEntry {
  @PrimaryColumn({ type: 'text' })
  app!: string;

  /** bigint: read back as a string. */
  @PrimaryColumn({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'uuid' })
  id!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

  @Column({ type: 'text' })
  action!: string;

  @Column({ name: 'actor_type', type: 'text' })
  actorType!: 'user' | 'system';

  @Column({ name: 'actor_id', type: 'text' })
  actorId!: string;

  @Column({ name: 'actor_name', type: 'text', nullable: true })
  actorName!: string | null;

  @Column({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @Column({ name: 'resource_id', type: 'text', nullable: true })
  resourceId!: string | null;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId!: string | null;

  @Column({ type: 'text', nullable: true })
  cause!: string | null;

  @Column({ type: 'jsonb' })
  changes!: Record<string, [unknown, unknown]>;

  @Column({ name: 'prev_hash', type: 'text' })
  prevHash!: string;

  @Column({ type: 'text' })
  hash!: string;
}
