import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { AclConfig } from '../config';
import { publicJwkOf } from './jwk';
import type { PublicJwk, RotationResult } from './key.view';
import { SigningKey } from './signing-key.entity';

/** Arbitrary constant: serialises key creation and rotation between replicas. */
const KEY_LOCK = 0x61636c4b;

/** How often a replica re-reads the keys, so a rotation done by another replica reaches it. */
export const KEYS_RELOAD_MS = 5_000;

interface LoadedKey {
  kid: string;
  jwk: PublicJwk;
  createdAt: Date;
  /** null while active; else the time the key stops being published. */
  retiredAt: Date | null;
  privateKey?: KeyObject;
}

/**
 * acl's RS256 signing keys, kept in its database so replicas sign with and publish the same
 * ones. `JWT_PRIVATE_KEY` seeds the first key; otherwise the first replica to start generates
 * one under an advisory lock and the others find it.
 *
 * Rotation (`rotate()`, the admin endpoint) adds a new active key and schedules the previous ones
 * to retire after `JWT_KEY_GRACE` (longer than a token lives plus the JWKS cache), so tokens
 * signed just before the rotation stay verifiable. The keys are held in memory (the JWKS is
 * served from there, not queried per request) and re-read every few seconds.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SigningKeysService');
  private keys: LoadedKey[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AclConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.ensureKey();
    await this.reload();
    this.timer = setInterval(() => {
      this.reload().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'Reloading signing keys failed'),
      );
    }, KEYS_RELOAD_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The key new tokens are signed with: the newest active one. */
  signingKey(): { kid: string; key: KeyObject } {
    const active = this.keys.find((k) => k.retiredAt === null && k.privateKey);
    if (!active?.privateKey) throw new Error('Signing keys are not loaded yet');
    return { kid: active.kid, key: active.privateKey };
  }

  /**
   * Every key still published (active, or retiring and within its grace), newest first, public
   * members only, from memory.
   */
  publicKeys(now = Date.now()): PublicJwk[] {
    return this.keys
      .filter((k) => k.retiredAt === null || k.retiredAt.getTime() > now)
      .map((k) => ({ ...k.jwk, kid: k.kid }));
  }

  /** Makes a new key the signing key; the others retire after the grace period. */
  async rotate(): Promise<RotationResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
      // TypeORM answers an UPDATE ... RETURNING with [rows, count].
      const [retiring]: [{ kid: string; retired_at: Date }[], number] = await manager.query(
        `UPDATE signing_keys SET retired_at = now() + make_interval(secs => $1)
          WHERE retired_at IS NULL RETURNING kid, retired_at`,
        [this.config.signing.keyGrace / 1000],
      );
      const created = await this.generate(manager);
      return {
        kid: created.kid,
        retiring: retiring.map((r) => ({ kid: r.kid, retires_at: new Date(r.retired_at).toISOString() })),
      };
    });
    this.logger.log(
      { kid: result.kid, retiring: result.retiring },
      `Rotated the signing key; previous keys retire after ${this.config.signing.keyGrace / 1000} s`,
    );
    await this.reload();
    return result;
  }

  /** Re-reads the published keys; private keys are parsed once per kid. */
  async reload(): Promise<void> {
    const rows: {
      kid: string;
      private_key_pem: string;
      public_jwk: PublicJwk;
      created_at: Date;
      retired_at: Date | null;
    }[] = await this.dataSource.query(
      `SELECT kid, private_key_pem, public_jwk, created_at, retired_at FROM signing_keys
          WHERE retired_at IS NULL OR retired_at > now()
          ORDER BY created_at DESC, kid`,
    );
    const parsed = new Map(this.keys.map((k) => [k.kid, k.privateKey]));
    this.keys = rows.map((row) => ({
      kid: row.kid,
      jwk: row.public_jwk,
      createdAt: new Date(row.created_at),
      retiredAt: row.retired_at ? new Date(row.retired_at) : null,
      privateKey:
        row.retired_at === null ? (parsed.get(row.kid) ?? createPrivateKey(row.private_key_pem)) : undefined,
    }));
  }

  private async generate(manager: EntityManager): Promise<SigningKey> {
    const repo = manager.getRepository(SigningKey);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const jwk = publicJwkOf(pem);
    this.logger.log(`Generated a signing key (kid ${jwk.kid})`);
    return repo.save(repo.create({ kid: jwk.kid, privateKeyPem: pem, publicJwk: jwk, retiredAt: null }));
  }

  /**
   * At boot: a `JWT_PRIVATE_KEY` never seen before becomes the active key (the operator chose
   * it); one seen before is left as rotation left it. Without an active key, one is generated.
   */
  private async ensureKey(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
      const repo = manager.getRepository(SigningKey);
      const given = this.config.signing.privateKeyPem;
      if (given) {
        const pem = createPrivateKey(given).export({ type: 'pkcs8', format: 'pem' }).toString();
        const jwk = publicJwkOf(pem);
        if (!(await repo.existsBy({ kid: jwk.kid }))) {
          await manager.query(
            `UPDATE signing_keys SET retired_at = now() + make_interval(secs => $1) WHERE retired_at IS NULL`,
            [this.config.signing.keyGrace / 1000],
          );
          this.logger.log(`Using the signing key from JWT_PRIVATE_KEY (kid ${jwk.kid})`);
          await repo.save(repo.create({ kid: jwk.kid, privateKeyPem: pem, publicJwk: jwk, retiredAt: null }));
          return;
        }
      }
      const active: unknown[] = await manager.query(
        `SELECT 1 FROM signing_keys WHERE retired_at IS NULL LIMIT 1`,
      );
      if (active.length === 0) await this.generate(manager);
    });
  }
}
