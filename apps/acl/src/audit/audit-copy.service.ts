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
   * Stores entries (those the stream brought together, in one statement); a redelivered one
   * (same app and seq) changes nothing. A different entry at a seq already held is not taken:
   * the copy keeps what it first saw, and says so.
   */
  async store(entries: readonly AuditEntry[]): Promise<void> {
    const rows = entries.map((entry) => ({
      app: entry.app,
      seq: entry.seq,
      id: entry.id,
      at: entry.at,
      action: entry.action,
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      resource_type: entry.resource.type,
      resource_id: entry.resource.id,
      request_id: entry.request_id,
      cause: entry.cause,
      changes: entry.changes,
      prev_hash: entry.prev_hash,
      hash: entry.hash,
    }));
    const inserted: { app: string; seq: string }[] = await this.dataSource.query(
      `INSERT INTO audit_all (app, seq, id, at, action, actor_type, actor_id, actor_name, resource_type,
                              resource_id, request_id, cause, changes, prev_hash, hash)
       SELECT app, seq, id, at, action, actor_type, actor_id, actor_name, resource_type,
              resource_id, request_id, cause, changes, prev_hash, hash
         FROM jsonb_to_recordset($1::jsonb) AS r(app text, seq bigint, id uuid, at timestamptz,
              action text, actor_type text, actor_id text, actor_name text, resource_type text,
              resource_id text, request_id text, cause text, changes jsonb, prev_hash text, hash text)
       ON CONFLICT (app, seq) DO NOTHING RETURNING app, seq`,
      [JSON.stringify(rows)],
    );
    if (inserted.length === entries.length) return;
    const copied = new Set(inserted.map((row) => `${row.app}:${row.seq}`));
    const others = entries.filter((entry) => !copied.has(`${entry.app}:${entry.seq}`));
    const held: { app: string; seq: string; hash: string }[] = await this.dataSource.query(
      `SELECT a.app, a.seq, a.hash
         FROM audit_all a JOIN jsonb_to_recordset($1::jsonb) AS r(app text, seq bigint) USING (app, seq)`,
      [JSON.stringify(others.map(({ app, seq }) => ({ app, seq })))],
    );
    const heldHash = new Map(held.map((row) => [`${row.app}:${row.seq}`, row.hash]));
    for (const entry of others) {
      const hash = heldHash.get(`${entry.app}:${entry.seq}`);
      if (hash !== undefined && hash !== entry.hash)
        this.logger.error(
          { app: entry.app, seq: entry.seq, held: hash, received: entry.hash },
          'An audit entry differs from the one already copied at its seq; the copy keeps the first',
        );
    }
  }
}
