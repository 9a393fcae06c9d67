import { generateKeyPairSync, createPrivateKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PLATFORM_CONFIG } from '@media/platform';
import { IsNull, type DataSource } from 'typeorm';
import type { AclConfig } from '../config';
import { publicJwkOf } from './jwk';
import { SigningKey, type PublicJwk } from './signing-key.entity';

/** Arbitrary constant: serialises key creation between replicas starting at once. */
const KEY_LOCK = 0x61636c4b;

/**
 * acl's RS256 signing keys, kept in its database so replicas sign with and publish the same
 * ones. `JWT_PRIVATE_KEY` wins when given; otherwise the first replica to start generates one
 * under an advisory lock and the others find it.
 */
@Injectable()
export class SigningKeys implements OnModuleInit {
  private readonly logger = new Logger('SigningKeys');
  private active?: { kid: string; key: KeyObject };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PLATFORM_CONFIG) private readonly config: AclConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const row = await this.ensureKey();
    this.active = { kid: row.kid, key: createPrivateKey(row.privateKeyPem) };
  }

  /** The key new tokens are signed with. */
  signingKey(): { kid: string; key: KeyObject } {
    if (!this.active) throw new Error('Signing keys are not loaded yet');
    return this.active;
  }

  /** Every key not retired, public members only: tokens signed by an older key stay verifiable. */
  async publicKeys(): Promise<PublicJwk[]> {
    const rows = await this.dataSource
      .getRepository(SigningKey)
      .find({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC', kid: 'ASC' } });
    return rows.map((row) => ({ ...row.publicJwk, kid: row.kid }));
  }

  private ensureKey(): Promise<SigningKey> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
      const repo = manager.getRepository(SigningKey);
      const given = this.config.privateKeyPem();
      if (given) {
        const pem = createPrivateKey(given).export({ type: 'pkcs8', format: 'pem' }).toString();
        const jwk = publicJwkOf(pem);
        const existing = await repo.findOneBy({ kid: jwk.kid });
        if (existing) {
          if (existing.retiredAt) await repo.update({ kid: jwk.kid }, { retiredAt: null });
          return existing;
        }
        this.logger.log(`Using the signing key from JWT_PRIVATE_KEY (kid ${jwk.kid})`);
        return repo.save(repo.create({ kid: jwk.kid, privateKeyPem: pem, publicJwk: jwk, retiredAt: null }));
      }
      const newest = await repo.findOne({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
      if (newest) return newest;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const jwk = publicJwkOf(pem);
      this.logger.log(`Generated a signing key (kid ${jwk.kid})`);
      return repo.save(repo.create({ kid: jwk.kid, privateKeyPem: pem, publicJwk: jwk, retiredAt: null }));
    });
  }
}
