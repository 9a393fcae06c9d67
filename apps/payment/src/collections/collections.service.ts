import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { CollectionView } from '@media/contracts';
import { AclClient } from '@media/app-clients';
import { newestFirst, type Page, Paginator } from '@media/http';
import { ValidationFailed } from '@media/core';
import type { DataSource } from 'typeorm';
import { Collection } from './collection.entity';
import type { CreateCollectionDto, ListCollectionsQuery } from './dto/collection.dto';
import { toCollectionView } from './collection.view';

/** Collections (docs/api/contract.md §4a, `commissions:read-all`). */
@Injectable()
export class CollectionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(AclClient) private readonly acl: AclClient,
  ) {}

  async create(dto: CreateCollectionDto, now = new Date()): Promise<CollectionView> {
    const collectedAt = dto.collected_at === undefined ? now : new Date(dto.collected_at);
    const year = collectedAt.getUTCFullYear();
    if (year < 1 || year > 9999) {
      throw ValidationFailed.at(['body', 'collected_at'], 'Year should be 1 to 9999', 'datetime_parsing');
    }
    const bmId = dto.bm_id.toLowerCase();
    await this.acl.requireUser(bmId, ['body', 'bm_id']);
    const repo = this.dataSource.getRepository(Collection);
    const saved = await repo.save(
      repo.create({ bmId, category: dto.category, amount: dto.amount, collectedAt }),
    );
    return toCollectionView(await repo.findOneByOrFail({ id: saved.id }));
  }

  list(query: ListCollectionsQuery, req: Request): Promise<Page<CollectionView>> {
    const qb = this.dataSource.getRepository(Collection).createQueryBuilder('c');
    if (query.bm_id) qb.andWhere('c.bmId = :bmId', { bmId: query.bm_id.toLowerCase() });
    if (query.category !== undefined) qb.andWhere('c.category = :category', { category: query.category });
    return this.paginator.paginate(
      qb,
      newestFirst('c.collectedAt', (c) => c.collectedAt),
      query,
      req,
      toCollectionView,
    );
  }
}
