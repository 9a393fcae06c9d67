import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PublicJwk } from '../keys/key.view';

/** A key that signed at least one audit checkpoint: published at audit-keys.json for good. */
@Entity({ name: 'audit_signing_keys' })
export class AuditSigningKey {
  @PrimaryColumn({ type: 'text' })
  kid!: string;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: PublicJwk;

  @Column({ name: 'first_signed_at', type: 'timestamptz', precision: 3 })
  firstSignedAt!: Date;
}
