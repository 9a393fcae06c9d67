import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { StoryCategoryView } from '@media/contracts';
import { Conflict, NotFound } from '@media/core';
import { Paginator, type Page } from '@media/http';
import { uniqueViolation } from '@media/kernel';
import type { DataSource } from 'typeorm';
import type {
  CreateStoryCategoryDto,
  ListStoryCategoriesQuery,
  UpdateStoryCategoryDto,
} from './dto/story-category.dto';
import { StoryCategory } from './story-category.entity';
import { toStoryCategoryView } from './story-category.view';

const taken = (name: string) =>
  new Conflict(`A story category named '${name}' already exists.`, 'story_category_name_taken');

/** Story categories: their list and their management. */
@Injectable()
export class StoryCategoriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(StoryCategory);
  }

  async create(dto: CreateStoryCategoryDto): Promise<StoryCategoryView> {
    try {
      const row = await this.repo.save(
        this.repo.create({ name: dto.name, description: dto.description ?? null }),
      );
      return toStoryCategoryView(row);
    } catch (error) {
      if (uniqueViolation(error) === 'story_categories_name_key') throw taken(dto.name);
      throw error;
    }
  }

  async get(id: string): Promise<StoryCategoryView> {
    return toStoryCategoryView(await this.find(id));
  }

  async list(query: ListStoryCategoriesQuery, req: Request): Promise<Page<StoryCategoryView>> {
    return this.paginator.paginate(
      this.repo.createQueryBuilder('c'),
      {
        columns: [
          { expression: 'c.name COLLATE "C"', direction: 'ASC', cast: 'text' },
          { expression: 'c.id', direction: 'ASC', cast: 'uuid' },
        ],
        key: (c) => [c.name, c.id],
      },
      query,
      req,
      toStoryCategoryView,
    );
  }

  /** PATCH keeps absent fields; PUT passes every field (`description` absent = null). */
  async update(id: string, changes: UpdateStoryCategoryDto): Promise<StoryCategoryView> {
    const row = await this.find(id);
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.description !== undefined) row.description = changes.description;
    try {
      return toStoryCategoryView(await this.repo.save(row));
    } catch (error) {
      if (uniqueViolation(error) === 'story_categories_name_key') throw taken(row.name);
      throw error;
    }
  }

  async replace(id: string, dto: CreateStoryCategoryDto): Promise<StoryCategoryView> {
    return this.update(id, { name: dto.name, description: dto.description ?? null });
  }

  async remove(id: string): Promise<void> {
    // In a transaction, as every audited change (its entry names the caller).
    const result = await this.repo.manager.transaction((manager) =>
      manager.getRepository(StoryCategory).delete({ id: id.toLowerCase() }),
    );
    if (!result.affected) throw new NotFound('Story category', id);
  }

  private async find(id: string): Promise<StoryCategory> {
    const row = await this.repo.findOneBy({ id: id.toLowerCase() });
    if (!row) throw new NotFound('Story category', id);
    return row;
  }
}
