import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { ClientView } from '@media/contracts';
import { Conflict } from '@media/core';
import { Paginator, type Page } from '@media/http';
import { uniqueViolation } from '@media/kernel';
import type { DataSource } from 'typeorm';
import { Client } from './client.entity';
import type { CreateClientDto, ListClientsQuery } from './dto/client.dto';
import { toClientView } from './client.view';

/** Clients (docs/api/contract.md §4a, `analytics:sales`). */
@Injectable()
export class ClientsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  async create(dto: CreateClientDto): Promise<ClientView> {
    const repo = this.dataSource.getRepository(Client);
    try {
      return toClientView(await repo.save(repo.create({ name: dto.name, category: dto.category })));
    } catch (error) {
      if (uniqueViolation(error) === 'clients_name_key') {
        throw new Conflict(`A client named '${dto.name}' already exists.`, 'client_name_taken');
      }
      throw error;
    }
  }

  list(query: ListClientsQuery, req: Request): Promise<Page<ClientView>> {
    const qb = this.dataSource.getRepository(Client).createQueryBuilder('c');
    return this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'c.name', direction: 'ASC', cast: 'text' },
          { expression: 'c.id', direction: 'ASC', cast: 'uuid' },
        ],
        key: (c) => [c.name, c.id],
      },
      query,
      req,
      toClientView,
    );
  }
}
