import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { Paginator, type KeysetOrder, type Page } from '@media/http';
import { ValidationFailed, type AuditEntry } from '@media/core';
import type { DataSource } from 'typeorm';
import { AuditCopyEntry } from './audit-copy-entry.entity';
import { toAuditCopyView, type AuditCopyView } from './audit-copy.view';
import type { AuditCopyQuery } from './dto/audit-copy.query';

/**
 * Newest first across apps: by `at`, then app, then seq (each app's seq is unique, so the key is
 * unique). Within one app `at` follows commit order closely but not exactly, so seq breaks ties
 * only; `GET .../audit` of the app itself gives the strict seq order.
 */
const NEWEST_FIRST: KeysetOrder<AuditCopyEntry> = {
  columns: [
    { expression: 'e.at', direction: 'DESC', cast: 'timestamptz' },
    { expression: 'e.app', direction: 'DESC', cast: 'text' },
    { expression: 'e.seq', direction: 'DESC', cast: 'bigint' },
  ],
  key: (row) => [row.at.toISOString(), row.app, String(row.seq)],
};

/** Filters of the list and the column each one matches exactly. */
const EXACT: [keyof AuditCopyQuery & string, string][] = [
  ['app', 'e.app'],
  ['resource_type', 'e.resource_type'],
  ['resource_id', 'e.resource_id'],
  ['actor_id', 'e.actor_id'],
  ['action', 'e.action'],
  ['request_id', 'e.request_id'],
];

/** acl's merged, read-only copy of every app's sealed audit entries (CONTRACT §8.3). */
@Injectable()
export class AuditCopyService {
  private readonly logger = new Logger('AuditCopy');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  async list(query: AuditCopyQuery, req: Request): Promise<Page<AuditCopyView>> {
    if (query.from && query.to && Date.parse(query.from) >= Date.parse(query.to))
      throw ValidationFailed.at(['query', 'to'], 'to must be later than from');
    const qb = this.dataSource.getRepository(AuditCopyEntry).createQueryBuilder('e');
    for (const [filter, column] of EXACT) {
      const value = query[filter];
      if (value !== undefined) qb.andWhere(`${column} = :${filter}`, { [filter]: value });
    }
    if (query.from) qb.andWhere('e.at >= :from', { from: query.from });
    if (query.to) qb.andWhere('e.at < :to', { to: query.to });
    return this.paginator.paginate(qb, NEWEST_FIRST, query, req, toAuditCopyView);
  }

  /**
   * Stores one entry; a redelivered one (same app and seq) changes nothing. A different entry at
   * a seq already held is not taken: the copy keeps what it first saw, and says so.
   */
  async store(entry: AuditEntry): Promise<void> {
    const inserted: { hash: string }[] = await this.dataSource.query(
      `INSERT INTO audit_all (app, seq, id, at, action, actor_type, actor_id, actor_name, resource_type,
                              resource_id, request_id, cause, changes, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (app, seq) DO NOTHING RETURNING hash`,
      [
        entry.app,
        entry.seq,
        entry.id,
        entry.at,
        entry.action,
        entry.actor.type,
        entry.actor.id,
        entry.actor.name,
        entry.resource.type,
        entry.resource.id,
        entry.request_id,
        entry.cause,
        JSON.stringify(entry.changes),
        entry.prev_hash,
        entry.hash,
      ],
    );
    if (inserted.length > 0) return;
    const [held]: { hash: string }[] = await this.dataSource.query(
      `SELECT hash FROM audit_all WHERE app = $1 AND seq = $2`,
      [entry.app, entry.seq],
    );
    if (held && held.hash !== entry.hash)
      this.logger.error(
        { app: entry.app, seq: entry.seq, held: held.hash, received: entry.hash },
        'An audit entry differs from the one already copied at its seq; the copy keeps the first',
      );
  }
}
