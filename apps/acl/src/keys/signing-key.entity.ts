import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { PublicJwk } from './key.view';

/** An RS256 signing key; `kid` is the RFC 7638 thumbprint of its public key. */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'text' })
  kid!: string;

  @Column({ name: 'private_key_pem', type: 'text' })
  privateKeyPem!: string;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: PublicJwk;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'retired_at', type: 'timestamptz', precision: 3, nullable: true })
  retiredAt!: Date | null;
}
