import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newSecretToken, sha256 } from '../credentials/secret-tokens';
import { RefreshToken } from './refresh-token.entity';

/** What a new refresh token belongs to. */
export interface NewRefreshToken {
  userId: string;
  familyId: string;
  sessionStartedAt: Date;
  expiresAt: Date;
}

/**
 * The `refresh_tokens` table, the only way to write it: auth rotates tokens through it, users
 * ends a disabled user's sessions through it. Every method runs in the caller's transaction.
 */
@Injectable()
export class RefreshTokensService {
  /** The row of a presented token, locked until the transaction ends; null for an unknown token. */
  findForRotation(manager: EntityManager, token: string): Promise<RefreshToken | null> {
    return manager.getRepository(RefreshToken).findOne({
      where: { tokenHash: sha256(token) },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Writes a new token of the family and returns it; only its SHA-256 is stored. */
  async issue(manager: EntityManager, token: NewRefreshToken): Promise<string> {
    const refreshToken = newSecretToken();
    await manager.getRepository(RefreshToken).insert({
      familyId: token.familyId,
      userId: token.userId,
      tokenHash: sha256(refreshToken),
      expiresAt: token.expiresAt,
      sessionStartedAt: token.sessionStartedAt,
    });
    return refreshToken;
  }

  /** The token was rotated: presenting it again revokes its family. */
  async retire(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RefreshToken).update({ id }, { retiredAt: new Date() });
  }

  /** Ends one session (a login and its refreshes). */
  async revokeFamily(manager: EntityManager, familyId: string): Promise<void> {
    await manager.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId],
    );
  }

  /** Ends every session of a user. */
  async revokeAllOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
  }
}
