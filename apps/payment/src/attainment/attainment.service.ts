import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Permissions, type AttainmentView, type UserProfile } from '@media/contracts';
import { AclClient } from '@media/app-clients';
import { type AuthUser, hasPermission } from '@media/core';
import type { DataSource } from 'typeorm';
import { ATTAINMENT_SQL, attainmentParams, type AttainmentSqlRow } from './attainment.sql';
import { toAttainmentView } from './attainment.view';
import type { AttainmentQuery } from './dto/attainment.query';

/** Byte order of UTF-8 text (docs/api/contract.md §3), nulls last; keys are encoded once per row. */
function byteOrder(a: Buffer | null, b: Buffer | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return Buffer.compare(a, b);
}

const utf8 = (text: string | null) => (text === null ? null : Buffer.from(text));

/** Commission attainment per BM and category. */
@Injectable()
export class AttainmentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AclClient) private readonly acl: AclClient,
  ) {}

  /**
   * `commissions:read-all` sees every BM and their profiles come from `acl.users.get-many`, one
   * request per `ACL_USERS_MAX_IDS` BMs;
   * `commissions:read` sees the caller's reports, whose profiles come with `acl.users.reports`.
   * Either request failing is a 503: no row is answered unscoped or without its profile.
   */
  async attainment(query: AttainmentQuery, caller: AuthUser, now = new Date()): Promise<AttainmentView[]> {
    const year = query.year ?? now.getUTCFullYear();
    const month = query.month ?? now.getUTCMonth() + 1;
    let scope: string[] | null = null;
    let profiles = new Map<string, UserProfile>();
    if (!hasPermission(caller, Permissions.commissionsReadAll)) {
      const reports = await this.acl.reports(caller.id);
      if (reports.length === 0) return [];
      scope = reports.map((r) => r.id);
      profiles = new Map(reports.map((r) => [r.id, r]));
    }
    const rows: AttainmentSqlRow[] = await this.dataSource.query(
      ATTAINMENT_SQL,
      attainmentParams(year, month, scope),
    );
    if (scope === null) profiles = await this.acl.profiles([...new Set(rows.map((r) => r.bm_id))]);
    const answer = rows.map((r) => {
      const row = toAttainmentView(r, profiles.get(r.bm_id));
      return { row, keys: [utf8(row.bm_name), utf8(row.category), utf8(row.bm_id)] };
    });
    answer.sort(
      (a, b) =>
        byteOrder(a.keys[0], b.keys[0]) || byteOrder(a.keys[1], b.keys[1]) || byteOrder(a.keys[2], b.keys[2]),
    );
    return answer.map((a) => a.row);
  }
}
