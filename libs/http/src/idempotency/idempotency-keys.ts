import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** The headers of a kept answer that a replay repeats (docs/api/contract.md §7.1). */
export interface KeptHeaders {
  'content-type'?: string;
  location?: string;
  etag?: string;
  /** A resumable upload's creation (tus). */
  'upload-expires'?: string;
  'upload-offset'?: string;
}

/** A 2xx answer kept for its key. */
export interface KeptAnswer {
  status: number;
  headers: KeptHeaders;
  body: Buffer;
}

/** What claiming a key found. */
export type ClaimResult =
  | { outcome: 'claimed'; claim: string }
  | { outcome: 'in_flight'; fingerprint: string }
  | { outcome: 'kept'; fingerprint: string; answer: KeptAnswer };

export interface KeyScope {
  scope: string;
  caller: string;
  method: string;
  path: string;
  key: string;
}

interface Row {
  fingerprint: string;
  status: number | null;
  headers: KeptHeaders | null;
  body: Buffer | null;
}

/**
 * The `idempotency_keys` table of the app's own database. A key is claimed by inserting its
 * row (the primary key decides between racing requests and replicas); a row in flight for
 * longer than `inFlightTimeout`, or kept past its expiry, may be claimed again, so a crash
 * never leaves a key locked for ever.
 */
export class IdempotencyKeys {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: { ttl: number; inFlightTimeout: number },
  ) {}

  async claim(key: KeyScope, fingerprint: string): Promise<ClaimResult> {
    // The row may go between the insert and the read (its first request failed): try again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claim = randomUUID();
      const claimed = (await this.dataSource.query(
        `INSERT INTO idempotency_keys (scope, caller, method, path, key, fingerprint, claim, locked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now())
         ON CONFLICT (scope) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, locked_at = now(),
               status = NULL, headers = NULL, body = NULL, expires_at = NULL
           WHERE (idempotency_keys.status IS NULL
                  AND idempotency_keys.locked_at < now() - make_interval(secs => $8::float8 / 1000))
              OR idempotency_keys.expires_at <= now()
         RETURNING claim`,
        [
          key.scope,
          key.caller,
          key.method,
          key.path,
          key.key,
          fingerprint,
          claim,
          this.options.inFlightTimeout,
        ],
      )) as { claim: string }[];
      if (claimed.length > 0) return { outcome: 'claimed', claim };

      const [row] = (await this.dataSource.query(
        `SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE scope = $1`,
        [key.scope],
      )) as Row[];
      if (!row) continue;
      if (row.status === null || row.body === null)
        return { outcome: 'in_flight', fingerprint: row.fingerprint };
      return {
        outcome: 'kept',
        fingerprint: row.fingerprint,
        answer: { status: row.status, headers: row.headers ?? {}, body: row.body },
      };
    }
    // Claimed and freed three times over by others: as good as in flight.
    return { outcome: 'in_flight', fingerprint: '' };
  }

  /** Keeps a 2xx answer for IDEMPOTENCY_TTL, if this request still holds the key. */
  async keep(scope: string, claim: string, answer: KeptAnswer): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys
          SET status = $3, headers = $4, body = $5, expires_at = now() + make_interval(secs => $6::float8 / 1000)
        WHERE scope = $1 AND claim = $2`,
      [scope, claim, answer.status, JSON.stringify(answer.headers), answer.body, this.options.ttl],
    );
  }

  /** Frees the key after an answer that is not kept (anything but 2xx). */
  async release(scope: string, claim: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND claim = $2`, [
      scope,
      claim,
    ]);
  }
}

/**
 * Deletes kept answers past their expiry and claims abandoned in flight (a crashed request), a
 * batch at a time; returns how many went. Harmless when replicas run it at once.
 */
export async function deleteExpiredKeys(
  dataSource: DataSource,
  inFlightTimeout: number,
  batch = 1_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    // A DELETE answers [rows, count] through TypeORM's query().
    const [, count] = (await dataSource.query(
      `DELETE FROM idempotency_keys WHERE scope IN (
         SELECT scope FROM idempotency_keys
          WHERE expires_at <= now()
             OR (status IS NULL AND locked_at < now() - make_interval(secs => $1::float8 / 1000))
          LIMIT $2)`,
      [inFlightTimeout, batch],
    )) as [unknown[], number];
    total += count;
    if (count < batch) return total;
  }
}
