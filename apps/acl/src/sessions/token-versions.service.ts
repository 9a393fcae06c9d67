import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AclEvents, type TokenVersionsReply, type UserTokensRevokedEvent } from '@media/contracts';
import { changedRows } from '@media/kernel';
import { NotFound } from '@media/core';
import { Outbox } from '@media/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { RefreshTokensService } from './refresh-tokens.service';

/**
 * Users' token versions (docs/api/acl.md, revocation). Raising a user's version, in the caller's
 * transaction, revokes every access token issued before (they carry the lower `ver`), retires
 * every refresh token family of the user, and writes `acl.user.tokens-revoked` to the outbox,
 * so the change and the event commit together and every app learns it within seconds.
 */
@Injectable()
export class TokenVersionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(RefreshTokensService) private readonly refreshTokens: RefreshTokensService,
  ) {}

  /** Raises the versions of `userIds` (lowercase); unknown ids are skipped. Returns the new versions. */
  async raise(manager: EntityManager, userIds: readonly string[]): Promise<UserTokensRevokedEvent[]> {
    if (userIds.length === 0) return [];
    const rows = changedRows<{ id: string; token_version: number }>(
      await manager.query(
        `UPDATE users SET token_version = token_version + 1, token_version_raised_at = now()
          WHERE id = ANY($1::uuid[]) RETURNING id, token_version`,
        [[...new Set(userIds)]],
      ),
    );
    const raised = rows.map((row) => ({ user_id: row.id, ver: row.token_version }));
    for (const event of raised) {
      await this.refreshTokens.revokeAllOf(manager, event.user_id);
      await this.outbox.enqueue(manager, AclEvents.userTokensRevoked, event);
    }
    return raised;
  }

  /** `POST /auth/revoke`: every token of one user, in a transaction of its own; 404 for an unknown user. */
  async revoke(userId: string): Promise<void> {
    const raised = await this.dataSource.transaction((manager) =>
      this.raise(manager, [userId.toLowerCase()]),
    );
    if (raised.length === 0) throw new NotFound('User', userId);
  }

  /**
   * The versions raised at or after `since` (every nonzero one without it), and acl's clock when
   * read. Only versions raised within a token's lifetime matter: callers ask with `since` that far back.
   */
  async since(since?: Date): Promise<TokenVersionsReply> {
    const rows: { id: string; token_version: number; at: Date }[] = await this.dataSource.query(
      `SELECT id, token_version, now() AS at FROM users
        WHERE token_version > 0 AND ($1::timestamptz IS NULL OR token_version_raised_at >= $1)`,
      [since ?? null],
    );
    const [clock]: { at: Date }[] =
      rows.length > 0 ? rows : await this.dataSource.query(`SELECT now() AS at`);
    return {
      versions: rows.map((row) => ({ user_id: row.id, ver: row.token_version })),
      at: clock.at.toISOString(),
    };
  }
}
