import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/kernel';
import { RateLimited } from '@media/core';
import type { DataSource, EntityManager } from 'typeorm';
import type { AclConfig } from '../config';
import { publicJwkOf } from './jwk';
import { JWKS_MAX_AGE_MS, planRotation, signingKeyOf, trimAtStart, type KeyRules } from './key-rules';
import type { PublicJwk, RotationResult } from './key.view';
import { SigningKey } from './signing-key.entity';

/** Arbitrary constant: serialises key creation and rotation between replicas. */
const KEY_LOCK = 0x61636c4b;

/** How often a replica re-reads the keys, so a rotation done by another replica reaches it. */
export const KEYS_RELOAD_MS = 5_000;

/** A new key signs only once every replica has re-read the keys (twice over) and publishes it. */
export const KEY_ACTIVATION_MS = 2 * KEYS_RELOAD_MS;

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
 * Rotation (`rotate()`, the admin endpoint) publishes a new key at once and signs with it only
 * KEY_ACTIVATION_MS later, when every replica publishes it, so any verifier that looks up its
 * `kid` finds it; the previous keys retire `JWT_KEY_GRACE` after that (longer than a token lives
 * plus the JWKS cache). At most JWKS_MAX_KEYS keys are published: the oldest go at each rotation
 * and at start, but never one whose tokens may still be valid, and a second rotation within a
 * minute is refused (key-rules.ts). The keys are held in memory (the JWKS is served from there,
 * not queried per request) and re-read every few seconds.
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

  /** The key new tokens are signed with: the newest one every replica publishes (key-rules.ts). */
  signingKey(now = Date.now()): { kid: string; key: KeyObject } {
    const active = signingKeyOf(
      this.keys.filter((k) => k.privateKey && (k.retiredAt === null || k.retiredAt.getTime() > now)),
      now,
      this.rules,
    );
    if (!active?.privateKey) throw new Error('Signing keys are not loaded yet');
    return { kid: active.kid, key: active.privateKey };
  }

  private get rules(): KeyRules {
    return {
      maxKeys: this.config.signing.maxKeys,
      activationMs: KEY_ACTIVATION_MS,
      tokensOutliveMs: this.config.auth.accessTtl + JWKS_MAX_AGE_MS,
    };
  }

  /** The published keys (under the key lock), newest first, and the database's time. */
  private async published(
    manager: EntityManager,
  ): Promise<{ keys: { kid: string; createdAt: Date }[]; now: number }> {
    const rows: { kid: string; created_at: Date; now: Date }[] = await manager.query(
      `SELECT kid, created_at, now() AS now FROM signing_keys
          WHERE retired_at IS NULL OR retired_at > now()
          ORDER BY created_at DESC, kid`,
    );
    const [{ now }]: { now: Date }[] = rows.length > 0 ? rows : await manager.query('SELECT now() AS now');
    return {
      keys: rows.map((row) => ({ kid: row.kid, createdAt: new Date(row.created_at) })),
      now: new Date(now).getTime(),
    };
  }

  /** Stops publishing `kids` now. */
  private async unpublish(manager: EntityManager, kids: string[]): Promise<void> {
    if (kids.length === 0) return;
    await manager.query(`UPDATE signing_keys SET retired_at = now() WHERE kid = ANY($1)`, [kids]);
    this.logger.log({ kids }, `Stopped publishing ${kids.length} signing key(s) beyond JWKS_MAX_KEYS`);
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

  /**
   * Publishes a new key, which signs from KEY_ACTIVATION_MS on; the others retire after the grace
   * period, and the oldest beyond JWKS_MAX_KEYS stop being published. RateLimited (429) within a
   * minute of the last rotation, or when that would unpublish a key whose tokens may be valid.
   */
  async rotate(): Promise<RotationResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
      const { keys, now } = await this.published(manager);
      const plan = planRotation(keys, now, this.rules);
      if (!plan.allowed) throw new RateLimited(Math.max(1, Math.ceil(plan.retryAfterMs / 1000)), plan.reason);
      await this.unpublish(manager, plan.unpublish);
      // TypeORM answers an UPDATE ... RETURNING with [rows, count]. The replaced keys sign until
      // the new one starts, and stay published for the grace period after that.
      const [retiring]: [{ kid: string; retired_at: Date }[], number] = await manager.query(
        `UPDATE signing_keys SET retired_at = now() + make_interval(secs => $1)
          WHERE retired_at IS NULL RETURNING kid, retired_at`,
        [(KEY_ACTIVATION_MS + this.config.signing.keyGrace) / 1000],
      );
      const created = await this.generate(manager);
      return {
        kid: created.kid,
        signs_from: new Date(new Date(created.createdAt).getTime() + KEY_ACTIVATION_MS).toISOString(),
        retiring: retiring.map((r) => ({ kid: r.kid, retires_at: new Date(r.retired_at).toISOString() })),
        unpublished: plan.unpublish,
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
    // Every published key's private half: a replaced key signs until its successor is active.
    this.keys = rows.map((row) => ({
      kid: row.kid,
      jwk: row.public_jwk,
      createdAt: new Date(row.created_at),
      retiredAt: row.retired_at ? new Date(row.retired_at) : null,
      privateKey: parsed.get(row.kid) ?? createPrivateKey(row.private_key_pem),
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
            [(KEY_ACTIVATION_MS + this.config.signing.keyGrace) / 1000],
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
      await this.trimAtStart(manager);
    });
  }

  /** At start: at most JWKS_MAX_KEYS published, unless a key beyond it may still have valid tokens. */
  private async trimAtStart(manager: EntityManager): Promise<void> {
    const { keys, now } = await this.published(manager);
    const { unpublish, kept } = trimAtStart(keys, now, this.rules);
    await this.unpublish(manager, unpublish);
    if (kept.length > 0) {
      this.logger.warn(
        { kids: kept },
        `${kept.length} signing key(s) beyond JWKS_MAX_KEYS stay published while their tokens may be valid`,
      );
    }
  }
}
