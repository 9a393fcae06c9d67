import { createPublicKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuditCheckpointPayload } from '@media/contracts';
import type { DataSource } from 'typeorm';
import type { PublicJwk } from '../keys/key.view';
import { SigningKeysService } from '../keys/signing-keys.service';
import { AuditSigningKey } from './audit-signing-key.entity';
import { toAuditKeysView, type AuditKeysView } from './audit-keys.view';

/**
 * jose, loaded on the first signature rather than at start: half a MiB of heap that a process
 * signing no checkpoint (most of its life) need not hold (docs/benchmarks.md).
 */
let jose: Promise<typeof import('jose')> | undefined;

/**
 * Signs the apps' audit checkpoints (CONTRACT §8.2) with acl's current signing key, and keeps
 * every key that ever signed one in `audit_signing_keys`, so audit-keys.json publishes it for good
 * (the token JWKS unpublishes old keys; a checkpoint must stay verifiable after that).
 */
@Injectable()
export class CheckpointSignerService {
  /** Kids already recorded by this replica: the INSERT is needed once per key. */
  private readonly recorded = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
  ) {}

  /**
   * A compact JWS (RS256, `kid` in the header) over the JSON of `{app, seq, hash, at}`. The key
   * is recorded before the signature is handed out, so no checkpoint exists whose key is unknown.
   */
  async sign(checkpoint: AuditCheckpointPayload): Promise<{ kid: string; jws: string }> {
    const { kid, key } = this.keys.signingKey();
    if (!this.recorded.has(kid)) {
      const { n, e } = createPublicKey(key).export({ format: 'jwk' }) as { n: string; e: string };
      const jwk: PublicJwk = { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' };
      await this.dataSource.query(
        `INSERT INTO audit_signing_keys (kid, public_jwk) VALUES ($1, $2) ON CONFLICT (kid) DO NOTHING`,
        [kid, jwk],
      );
      this.recorded.add(kid);
    }
    const { app, seq, hash, at } = checkpoint;
    const payload = new TextEncoder().encode(JSON.stringify({ app, seq, hash, at }));
    const { CompactSign } = await (jose ??= import('jose'));
    const jws = await new CompactSign(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
    return { kid, jws };
  }

  /** Every key that ever signed a checkpoint, retired ones included. */
  async auditKeys(): Promise<AuditKeysView> {
    const rows = await this.dataSource
      .getRepository(AuditSigningKey)
      .find({ order: { firstSignedAt: 'ASC', kid: 'ASC' } });
    return toAuditKeysView(rows);
  }
}
