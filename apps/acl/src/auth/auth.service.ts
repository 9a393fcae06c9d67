import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/kernel';
import { RateLimited, Unauthenticated } from '@media/core';
import { recordAuditEvent, withAudit } from '@media/platform';
import jwt from 'jsonwebtoken';
import type { DataSource, EntityManager } from 'typeorm';
import type { AclConfig } from '../config';
import { SigningKeysService } from '../keys/signing-keys.service';
import { verifyPassword, warmDummyHash } from '../credentials/passwords';
import { RefreshTokensService } from '../sessions/refresh-tokens.service';
import { UserAccountsService } from '../users/user-accounts.service';
import { UserDirectoryService } from '../users/user-directory.service';
import { displayName } from '../users/user.view';
import type { TokenPair } from './auth.view';
import { ATTEMPT_LEASE_MS, FAILURE_MEMORY_MS, loginDelayMs } from './login-throttle';
import { buildAccessClaims } from './token-claims';

const PRUNE_BATCH = 500;

const invalidCredentials = () =>
  new Unauthenticated('invalid_credentials', 'Unable to log in with the provided credentials.');
const loginInFlight = () =>
  new RateLimited(1, 'Another login attempt for this account is being checked; try again in a second.');
const invalidRefresh = () =>
  new Unauthenticated('token_invalid', 'The refresh token is invalid, expired or already used.');

/** Login, refresh-token rotation and access-token signing. */
@Injectable()
export class AuthService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AclConfig,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(UserDirectoryService) private readonly directory: UserDirectoryService,
    @Inject(UserAccountsService) private readonly accounts: UserAccountsService,
    @Inject(RefreshTokensService) private readonly refreshTokens: RefreshTokensService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await warmDummyHash();
  }

  /**
   * One answer for an unknown email, a wrong password, an invited and a disabled account, each
   * after a real argon2 verification; an email with recent failures waits first, whatever the
   * outcome, so the wait tells nothing either (docs/api/contract.md §1). The attempt first claims the email's
   * row in the database (shared by every replica): while it waits and is checked, another
   * attempt for the same email is answered 429 without its password being checked, so parallel
   * guessing gains nothing.
   */
  async login(rawEmail: string, password: string): Promise<TokenPair> {
    const email = rawEmail.trim().toLowerCase();
    const claimed = await this.claimAttempt(email);
    if (!claimed) {
      await this.securityEvent('user.login.rate_limited', email);
      throw loginInFlight();
    }
    let settled = false;
    try {
      const delay = loginDelayMs(claimed.failures, claimed.lastFailedAt, new Date());
      if (delay > 0) await sleep(delay);

      const user = await this.accounts.signInRecord(email);
      const passwordMatches = await verifyPassword(user?.password_hash ?? null, password);
      if (!user || !passwordMatches || user.status !== 'ACTIVE') {
        await this.recordFailure(email);
        await this.securityEvent('user.login.failed', email);
        settled = true;
        throw invalidCredentials();
      }
      // Success forgets the failures and ends the attempt in one statement.
      await this.dataSource.query(`DELETE FROM login_failures WHERE email = $1`, [email]);
      settled = true;
      await this.accounts.recordLogin(user.id);
      // The refresh token and the audit entry of the login are written together.
      const actor = { type: 'user' as const, id: user.id, name: null };
      return await withAudit({ actor }, () =>
        this.dataSource.transaction(async (manager) => {
          const pair = await this.issue(user.id, randomUUID(), new Date(), manager);
          if (!pair) throw invalidCredentials();
          await recordAuditEvent(manager, {
            action: 'user.login.succeeded',
            resource: { type: 'user', id: user.id },
          });
          return pair;
        }),
      );
    } finally {
      if (!settled) {
        await this.dataSource
          .query(`UPDATE login_failures SET in_flight_until = NULL WHERE email = $1`, [email])
          .catch(() => undefined);
      }
    }
  }

  /**
   * Claims the email's attempt row unless another attempt holds it; returns its failure count,
   * or undefined when the email is busy. The upsert is atomic: of two racing attempts, the
   * second sees the first's claim (ON CONFLICT re-checks the committed row) and gets nothing.
   */
  private async claimAttempt(
    email: string,
  ): Promise<{ failures: number; lastFailedAt: Date | null } | undefined> {
    const rows: { failures: number; last_failed_at: Date | null }[] = await this.dataSource.query(
      `INSERT INTO login_failures (email, failures, last_failed_at, in_flight_until)
       VALUES ($1, 0, NULL, now() + make_interval(secs => $2))
       ON CONFLICT (email) DO UPDATE SET in_flight_until = EXCLUDED.in_flight_until
        WHERE login_failures.in_flight_until IS NULL OR login_failures.in_flight_until < now()
       RETURNING failures, last_failed_at`,
      [email, ATTEMPT_LEASE_MS / 1000],
    );
    if (rows.length === 0) return undefined;
    return { failures: rows[0].failures, lastFailedAt: rows[0].last_failed_at };
  }

  /**
   * Rotation: the presented token is retired and the new one of the same family written in the
   * same transaction, so a crash between the two cannot leave the session without a token, and
   * two racing refreshes of one token cannot both succeed (the row is locked). A retired token
   * presented again means it was copied, so the whole family is revoked. A session ends for good
   * `REFRESH_MAX_AGE` after its login, however often it is refreshed.
   */
  async refresh(token: string): Promise<TokenPair> {
    const pair = await this.dataSource.transaction(async (manager) => {
      const row = await this.refreshTokens.findForRotation(manager, token);
      if (!row) return undefined;
      if (row.retiredAt || row.revokedAt) {
        await this.refreshTokens.revokeFamily(manager, row.familyId);
        await recordAuditEvent(manager, {
          action: 'user.refresh.reused',
          resource: { type: 'user', id: row.userId },
          changes: { family_id: [row.familyId, null] },
        });
        this.logger.warn(
          { user_id: row.userId, family_id: row.familyId },
          'Refresh token reused; family revoked',
        );
        return undefined;
      }
      const now = Date.now();
      if (row.expiresAt.getTime() <= now) return undefined;
      if (row.sessionStartedAt.getTime() + this.config.sessions.maxAge <= now) return undefined;
      if ((await this.accounts.status(manager, row.userId)) !== 'ACTIVE') {
        await this.refreshTokens.revokeFamily(manager, row.familyId);
        return undefined;
      }
      await this.refreshTokens.retire(manager, row.id);
      return this.issue(row.userId, row.familyId, row.sessionStartedAt, manager);
    });
    if (!pair) throw invalidRefresh();
    return pair;
  }

  /** Signs an access token and writes a refresh token (in `manager`'s transaction when given). */
  private async issue(
    userId: string,
    familyId: string,
    sessionStartedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TokenPair | undefined> {
    const loaded = await this.directory.loadOne(userId, manager);
    if (!loaded) return undefined;
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
        ver: user.tokenVersion,
      },
      {
        issuer: this.config.auth.issuer,
        audience: this.config.auth.audience,
        ttlMs: this.config.auth.accessTtl,
      },
      new Date(),
    );
    const { kid, key } = this.keys.signingKey();
    const accessToken = jwt.sign(claims, key, { algorithm: 'RS256', keyid: kid });

    // Never beyond the session's absolute end.
    const expiresAt = Math.min(
      Date.now() + this.config.sessions.refreshTtl,
      sessionStartedAt.getTime() + this.config.sessions.maxAge,
    );
    const refreshToken = await this.refreshTokens.issue(manager, {
      userId,
      familyId,
      sessionStartedAt,
      expiresAt: new Date(expiresAt),
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.floor(this.config.auth.accessTtl / 1000),
      refresh_token: refreshToken,
    };
  }

  /**
   * A security event of a login attempt (CONTRACT §8.1) on the email's user (`id` null for an
   * unknown email), made by the anonymous caller (`acl:login`); never the password.
   */
  private async securityEvent(action: string, email: string): Promise<void> {
    const actor = { type: 'system' as const, id: 'acl:login', name: null };
    await withAudit({ actor }, () =>
      this.dataSource.transaction(async (manager) => {
        const [user]: { id: string }[] = await manager.query(`SELECT id FROM users WHERE email = $1`, [
          email,
        ]);
        await recordAuditEvent(manager, { action, resource: { type: 'user', id: user?.id ?? null } });
      }),
    );
  }

  /**
   * Counts a failure for this email (known or not) and ends its attempt; a quiet spell starts
   * the count again.
   */
  private async recordFailure(email: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE login_failures SET
         failures = CASE WHEN last_failed_at IS NULL OR last_failed_at < now() - make_interval(secs => $2) THEN 1
                         ELSE failures + 1 END,
         last_failed_at = now(),
         in_flight_until = NULL
       WHERE email = $1`,
      [email, FAILURE_MEMORY_MS / 1000],
    );
    await this.pruneLoginFailures();
  }

  /**
   * Only the last 15 minutes of failures matter (docs/api/contract.md §1): each failure deletes a batch of
   * rows older than that (and rows of attempts that never finished), so the table holds about
   * 15 minutes of failing emails. Rows are only added by attempts, so pruning on failures keeps
   * pace with growth; a success deletes its own row.
   */
  private async pruneLoginFailures(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM login_failures WHERE email IN (
         SELECT email FROM login_failures
          WHERE coalesce(last_failed_at, '-infinity') < now() - make_interval(secs => $1)
            AND (in_flight_until IS NULL OR in_flight_until < now())
          LIMIT $2)`,
      [FAILURE_MEMORY_MS / 1000, PRUNE_BATCH],
    );
  }
}
