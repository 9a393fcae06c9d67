import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { CommissionTargetView } from '@media/contracts';
import { AclClient } from '@media/app-clients';
import { newestFirst, type Page, Paginator } from '@media/http';
import type { DataSource } from 'typeorm';
import type { ListTargetsQuery, UpsertTargetDto } from './dto/target.dto';
import { toCommissionTargetView } from './target.view';
import { CommissionTarget } from './target.entity';

interface TargetRow {
  id: string;
  bm_id: string;
  category: string;
  month: number;
  year: number;
  target_amount: string;
  created_at: Date;
  updated_at: Date;
  inserted: boolean;
}

/** BM targets (docs/api/contract.md §4a, `commissions:read-all`). */
@Injectable()
export class TargetsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(AclClient) private readonly acl: AclClient,
  ) {}

  /** One atomic upsert: concurrent writes of one key end in one row; `created` for the first. */
  async upsert(dto: UpsertTargetDto): Promise<{ created: boolean; target: CommissionTargetView }> {
    const bmId = dto.bm_id.toLowerCase();
    await this.acl.requireUser(bmId, ['body', 'bm_id']);
    // In a transaction, as every audited change (its entry names the caller).
    const [row]: TargetRow[] = await this.dataSource.transaction((manager) =>
      manager.query(
        `INSERT INTO commission_targets (bm_id, category, month, year, target_amount)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (year, month, bm_id, category) DO UPDATE
         SET target_amount = EXCLUDED.target_amount, updated_at = now()
       RETURNING id, bm_id, category, month, year, target_amount::text, created_at, updated_at,
                 (xmax = 0) AS inserted`,
        [bmId, dto.category, dto.month, dto.year, dto.target_amount],
      ),
    );
    return {
      created: row.inserted,
      target: {
        id: row.id,
        bm_id: row.bm_id,
        category: row.category,
        month: row.month,
        year: row.year,
        target_amount: row.target_amount,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      },
    };
  }

  list(query: ListTargetsQuery, req: Request): Promise<Page<CommissionTargetView>> {
    const qb = this.dataSource.getRepository(CommissionTarget).createQueryBuilder('t');
    if (query.bm_id) qb.andWhere('t.bmId = :bmId', { bmId: query.bm_id.toLowerCase() });
    if (query.category !== undefined) qb.andWhere('t.category = :category', { category: query.category });
    if (query.month !== undefined) qb.andWhere('t.month = :month', { month: query.month });
    if (query.year !== undefined) qb.andWhere('t.year = :year', { year: query.year });
    return this.paginator.paginate(
      qb,
      newestFirst('t.createdAt', (t) => t.createdAt),
      query,
      req,
      toCommissionTargetView,
    );
  }
}
