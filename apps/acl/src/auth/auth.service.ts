import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PLATFORM_CONFIG, Unauthenticated } from '@media/platform';
import jwt from 'jsonwebtoken';
import type { DataSource, EntityManager } from 'typeorm';
import type { AclConfig } from '../config';
import { SigningKeys } from '../keys/signing-keys.service';
import { UserDirectory } from '../users/user-directory.service';
import { User } from '../users/user.entity';
import { displayName } from '../users/user-view';
import { FAILURE_MEMORY_MS, loginDelayMs } from './login-throttle';
import { verifyPassword, warmDummyHash } from './passwords';
import { LoginFailure, RefreshToken } from './refresh-token.entity';
import { newSecretToken, sha256 } from './secret-tokens';
import { buildAccessClaims } from './token-claims';

/** The token pair of CONTRACT §1. */
export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

const invalidCredentials = () =>
  new Unauthenticated('invalid_credentials', 'Unable to log in with the provided credentials.');
const invalidRefresh = () =>
  new Unauthenticated('token_invalid', 'The refresh token is invalid, expired or already used.');

/** Login, refresh-token rotation and access-token signing. */
@Injectable()
export class AuthService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PLATFORM_CONFIG) private readonly config: AclConfig,
    @Inject(SigningKeys) private readonly keys: SigningKeys,
    @Inject(UserDirectory) private readonly directory: UserDirectory,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await warmDummyHash();
  }

  /**
   * One answer for an unknown email, a wrong password, an invited and a disabled account, each
   * after a real argon2 verification; an email with recent failures waits first, whatever the
   * outcome, so the wait tells nothing either (CONTRACT §1).
   */
  async login(rawEmail: string, password: string): Promise<TokenPair> {
    const email = rawEmail.trim().toLowerCase();
    const failures = this.dataSource.getRepository(LoginFailure);
    const record = await failures.findOneBy({ email });
    const delay = loginDelayMs(record?.failures ?? 0, record?.lastFailedAt ?? null, new Date());
    if (delay > 0) await sleep(delay);

    const user = await this.dataSource.getRepository(User).findOneBy({ email });
    const passwordMatches = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !passwordMatches || user.status !== 'ACTIVE') {
      await this.recordFailure(email);
      throw invalidCredentials();
    }
    if (record) await failures.delete({ email });
    await this.dataSource.getRepository(User).update({ id: user.id }, { lastLogin: new Date() });
    return this.issue(user.id, randomUUID());
  }

  /**
   * Rotation: the presented token is retired and a new one of the same family is issued. A
   * retired token presented again means it was copied, so the whole family is revoked.
   */
  async refresh(token: string): Promise<TokenPair> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(RefreshToken);
      const row = await repo.findOne({
        where: { tokenHash: sha256(token) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) return undefined;
      if (row.retiredAt || row.revokedAt) {
        await this.revokeFamily(manager, row.familyId);
        this.logger.warn(
          { user_id: row.userId, family_id: row.familyId },
          'Refresh token reused; family revoked',
        );
        return undefined;
      }
      if (row.expiresAt.getTime() <= Date.now()) return undefined;
      const user = await manager.getRepository(User).findOneBy({ id: row.userId });
      if (!user || user.status !== 'ACTIVE') {
        await this.revokeFamily(manager, row.familyId);
        return undefined;
      }
      await repo.update({ id: row.id }, { retiredAt: new Date() });
      return { userId: row.userId, familyId: row.familyId };
    });
    if (!outcome) throw invalidRefresh();
    return this.issue(outcome.userId, outcome.familyId);
  }

  private async issue(userId: string, familyId: string): Promise<TokenPair> {
    const loaded = (await this.directory.load([userId])).get(userId);
    if (!loaded) throw invalidRefresh();
    const { user, roles, permissions, groups } = loaded;
    const claims = buildAccessClaims(
      {
        id: user.id,
        email: user.email,
        name: displayName(user),
        employee_number: user.employeeNumber,
        groups,
        roles,
        permissions,
      },
      {
        issuer: this.config.JWT_ISSUER,
        audience: this.config.JWT_AUDIENCE,
        ttlMs: this.config.JWT_ACCESS_TTL,
      },
      new Date(),
    );
    const { kid, key } = this.keys.signingKey();
    const accessToken = jwt.sign(claims, key, { algorithm: 'RS256', keyid: kid });

    const refreshToken = newSecretToken();
    const repo = this.dataSource.getRepository(RefreshToken);
    await repo.insert({
      familyId,
      userId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + this.config.JWT_REFRESH_TTL),
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.floor(this.config.JWT_ACCESS_TTL / 1000),
      refresh_token: refreshToken,
    };
  }

  private async revokeFamily(manager: EntityManager, familyId: string): Promise<void> {
    await manager.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId],
    );
  }

  /** Counts a failure for this email (known or not); a quiet spell starts the count again. */
  private async recordFailure(email: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO login_failures (email, failures, last_failed_at) VALUES ($1, 1, now())
       ON CONFLICT (email) DO UPDATE SET
         failures = CASE WHEN login_failures.last_failed_at < now() - make_interval(secs => $2) THEN 1
                         ELSE login_failures.failures + 1 END,
         last_failed_at = now()`,
      [email, FAILURE_MEMORY_MS / 1000],
    );
    // Old counters are useless; pruning on a few failures keeps the table small without a scheduler.
    if (Math.random() < 0.02) {
      await this.dataSource.query(
        `DELETE FROM login_failures WHERE last_failed_at < now() - interval '1 day'`,
      );
    }
  }
}
