import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { DealView } from '@media/contracts';
import { Paginator, type Page } from '@media/http';
import { ValidationFailed } from '@media/core';
import type { DataSource } from 'typeorm';
import { Client } from '../clients/client.entity';
import { Deal } from './deal.entity';
import type { CreateDealDto, ListDealsQuery } from './dto/deal.dto';
import { toDealView } from './deal.view';

/** Deals (docs/api/contract.md §4a, `analytics:sales`); a trigger keeps client_won_totals in step. */
@Injectable()
export class DealsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  async create(dto: CreateDealDto, now = new Date()): Promise<DealView> {
    const clientId = dto.client_id.toLowerCase();
    // A deal names its client in the body: an unknown one is a 422 there, not a 404.
    if (!(await this.dataSource.getRepository(Client).existsBy({ id: clientId }))) {
      throw ValidationFailed.at(
        ['body', 'client_id'],
        `Client ${dto.client_id} does not exist`,
        'value_error',
      );
    }
    // PostgreSQL has no year 0 (docs/api/contract.md §2: years 1..9999).
    if (dto.contract_date !== undefined && dto.contract_date < '0001-01-01') {
      throw ValidationFailed.at(['body', 'contract_date'], 'Year should be 1 to 9999', 'date_parsing');
    }
    const repo = this.dataSource.getRepository(Deal);
    const deal = await repo.save(
      repo.create({
        clientId,
        contractedRevenue: dto.contracted_revenue,
        contractDate: dto.contract_date ?? now.toISOString().slice(0, 10),
        status: dto.status ?? 'WON',
      }),
    );
    // Read back: the numeric comes back normalised to two decimals.
    return toDealView(await repo.findOneByOrFail({ id: deal.id }));
  }

  list(query: ListDealsQuery, req: Request): Promise<Page<DealView>> {
    const qb = this.dataSource.getRepository(Deal).createQueryBuilder('d');
    if (query.client_id) qb.andWhere('d.clientId = :clientId', { clientId: query.client_id.toLowerCase() });
    if (query.status) qb.andWhere('d.status = :status', { status: query.status });
    return this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'd.contractDate', direction: 'DESC', cast: 'date' },
          { expression: 'd.id', direction: 'DESC', cast: 'uuid' },
        ],
        key: (d) => [d.contractDate, d.id],
      },
      query,
      req,
      toDealView,
    );
  }
}
