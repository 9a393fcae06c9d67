import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Role } from './role.entity';
import type { RoleView } from './role.view';

@Injectable()
export class RolesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every role, by code in byte order. */
  async list(): Promise<RoleView[]> {
    const roles = await this.dataSource
      .getRepository(Role)
      .createQueryBuilder('r')
      .orderBy('r.code COLLATE "C"', 'ASC')
      .getMany();
    return roles.map((r) => ({ code: r.code, name: r.name, permissions: r.permissions }));
  }
}
