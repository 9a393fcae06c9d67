import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { CommissionPlanView, CommissionTierView } from '@media/contracts';
import { Paginator, type Page } from '@media/http';
import { ValidationFailed, formatMoney } from '@media/core';
import type { DataSource } from 'typeorm';
import type { CreatePlanDto, ListPlansQuery } from './dto/plan.dto';
import { toPlanView } from './plan.view';
import { CommissionPlan } from './plan.entity';

interface PlanRow {
  id: string;
  category: string;
  created_at: Date;
  updated_at: Date;
  inserted: boolean;
}

/** Commission plans (docs/api/contract.md §4a, `commissions:read-all`). */
@Injectable()
export class PlansService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  /**
   * Replaces the category's plan in one transaction; `created` is false when one existed. The
   * upsert locks the plan row, so concurrent replacements of one category apply one after the
   * other and the tiers are never a mix of two requests.
   */
  async replace(dto: CreatePlanDto): Promise<{ created: boolean; plan: CommissionPlanView }> {
    const seen = new Map<string, number>();
    dto.tiers.forEach((tier, i) => {
      const key = formatMoney(tier.min_achievement_pct);
      if (seen.has(key)) {
        throw ValidationFailed.at(
          ['body', 'tiers', String(i), 'min_achievement_pct'],
          `Tier ${seen.get(key)} already starts at ${key}%`,
          'value_error',
        );
      }
      seen.set(key, i);
    });
    return this.dataSource.transaction(async (em) => {
      const [row]: PlanRow[] = await em.query(
        `INSERT INTO commission_plans (category) VALUES ($1)
         ON CONFLICT (category) DO UPDATE SET updated_at = now()
         RETURNING id, category, created_at, updated_at, (xmax = 0) AS inserted`,
        [dto.category],
      );
      await em.query(`DELETE FROM commission_tiers WHERE plan_id = $1`, [row.id]);
      await em.query(
        `INSERT INTO commission_tiers (plan_id, min_achievement_pct, rate_pct)
         SELECT $1, * FROM unnest($2::numeric[], $3::numeric[])`,
        [row.id, dto.tiers.map((t) => t.min_achievement_pct), dto.tiers.map((t) => t.rate_pct)],
      );
      const tiers = await this.tiersOf([row.id], em.query.bind(em));
      return { created: row.inserted, plan: toPlanView(row, tiers.get(row.id) ?? []) };
    });
  }

  async list(query: ListPlansQuery, req: Request): Promise<Page<CommissionPlanView>> {
    const qb = this.dataSource.getRepository(CommissionPlan).createQueryBuilder('p');
    const page = await this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'p.category', direction: 'ASC', cast: 'text' },
          { expression: 'p.id', direction: 'ASC', cast: 'uuid' },
        ],
        key: (p) => [p.category, p.id],
      },
      query,
      req,
      (p) => p,
    );
    const tiers = await this.tiersOf(
      page.results.map((p) => p.id),
      this.dataSource.query.bind(this.dataSource),
    );
    return {
      ...page,
      results: page.results.map((p) =>
        toPlanView(
          { id: p.id, category: p.category, created_at: p.createdAt, updated_at: p.updatedAt },
          tiers.get(p.id) ?? [],
        ),
      ),
    };
  }

  private async tiersOf(
    planIds: string[],
    query: (sql: string, params: unknown[]) => Promise<unknown>,
  ): Promise<Map<string, CommissionTierView[]>> {
    const out = new Map<string, CommissionTierView[]>();
    if (planIds.length === 0) return out;
    const rows = (await query(
      `SELECT t.plan_id, t.min_achievement_pct::text AS min_achievement_pct, t.rate_pct::text AS rate_pct
         FROM commission_tiers t
        WHERE t.plan_id = ANY($1::uuid[])
        ORDER BY t.plan_id, t.min_achievement_pct`,
      [planIds],
    )) as { plan_id: string; min_achievement_pct: string; rate_pct: string }[];
    for (const r of rows) {
      const list = out.get(r.plan_id) ?? [];
      list.push({ min_achievement_pct: r.min_achievement_pct, rate_pct: r.rate_pct });
      out.set(r.plan_id, list);
    }
    return out;
  }
}
