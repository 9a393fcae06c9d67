import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Permissions, type AttainmentRow, type UserProfile } from '@media/contracts';
import { hasPermission, type AuthUser } from '@media/platform';
import type { DataSource } from 'typeorm';
import { AclDirectory } from '../acl/acl-directory.service';
import { ATTAINMENT_SQL, attainmentParams, type AttainmentSqlRow } from './attainment.sql';
import { commission, money } from './commission';
import type { AttainmentQuery } from './dto/attainment.query';

/** Byte order of UTF-8 text (CONTRACT §3), nulls last. */
function byteOrder(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Commission attainment per BM and category (endpoint 9). */
@Injectable()
export class AttainmentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AclDirectory) private readonly acl: AclDirectory,
  ) {}

  /**
   * `commissions:read-all` sees every BM and their profiles come from ONE `acl.users.get-many`;
   * `commissions:read` sees the caller's reports, whose profiles come with `acl.users.reports`.
   * Either request failing is a 503: no row is answered unscoped or without its profile.
   */
  async attainment(query: AttainmentQuery, caller: AuthUser, now = new Date()): Promise<AttainmentRow[]> {
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
    return rows
      .map((r): AttainmentRow => {
        const profile = profiles.get(r.bm_id);
        const collected = money(r.collected);
        return {
          bm_id: r.bm_id,
          bm_name: profile?.name ?? null,
          bm_email: profile?.email ?? null,
          employee_number: profile?.employee_number ?? null,
          category: r.category,
          target_amount: r.target_amount === null ? null : money(r.target_amount),
          collected_revenue: collected,
          ...commission(r.target_amount, collected, r.tiers),
        };
      })
      .sort(
        (a, b) =>
          byteOrder(a.bm_name, b.bm_name) || byteOrder(a.category, b.category) || byteOrder(a.bm_id, b.bm_id),
      );
  }
}
