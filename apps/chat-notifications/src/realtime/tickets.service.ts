import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AccessTokenClaims } from '@media/contracts';
import type { DataSource } from 'typeorm';
import { changedRows } from '@media/kernel';

/** How long a websocket ticket may wait before its upgrade (the issue: at most 30 s). */
export const TICKET_TTL_MS = 30_000;

const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Single-use websocket tickets for browsers, which cannot set an Authorization header on an
 * upgrade: the ticket stands in for the token in the URL, so the token itself never lands in a
 * URL that gets logged. Stored hashed in the database, so any replica can redeem it, once.
 */
@Injectable()
export class TicketsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async issue(claims: AccessTokenClaims): Promise<{ ticket: string; expires_at: string }> {
    const ticket = randomBytes(32).toString('base64url');
    // Never outlives the token it stands for.
    const expiresAt = new Date(Math.min(Date.now() + TICKET_TTL_MS, claims.exp * 1000));
    await this.dataSource.query(
      `INSERT INTO ws_tickets (ticket_hash, user_id, claims, expires_at) VALUES ($1, $2, $3, $4)`,
      [hash(ticket), claims.sub, JSON.stringify(claims), expiresAt],
    );
    // Expired tickets are swept here rather than by a timer: issuing is the only growth.
    await this.dataSource.query(
      `DELETE FROM ws_tickets WHERE expires_at < clock_timestamp() - interval '1 minute'`,
    );
    return { ticket, expires_at: expiresAt.toISOString() };
  }

  /** The claims of a valid, unused ticket (it is used up by this call), else null. */
  async redeem(ticket: string): Promise<AccessTokenClaims | null> {
    const result: unknown = await this.dataSource.query(
      `DELETE FROM ws_tickets WHERE ticket_hash = $1 RETURNING claims, expires_at > clock_timestamp() AS valid`,
      [hash(ticket)],
    );
    const [row] = changedRows<{ claims: AccessTokenClaims; valid: boolean }>(result);
    return row?.valid ? row.claims : null;
  }
}
