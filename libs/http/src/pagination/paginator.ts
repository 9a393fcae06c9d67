import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { urlWithQuery } from '@media/core';
import { CursorCodec, type KeyValue } from './cursor';
import { DEFAULT_PAGE_SIZE, type Page, type PageQuery } from './page-query';

/** One column of a keyset order. The last one must be unique (the id). */
export interface KeysetColumn {
  /** SQL expression, e.g. `u.date_joined` or `c.name COLLATE "C"`. */
  expression: string;
  direction: 'ASC' | 'DESC';
  /** SQL cast applied to the cursor's value, e.g. `timestamptz`, `uuid`, `int`. */
  cast?: string;
}

export interface KeysetOrder<T> {
  columns: KeysetColumn[];
  /** The sort key of a row, in the columns' order; timestamps as ISO strings. */
  key: (row: T) => KeyValue[];
}

/**
 * Newest first, ties by id (`<time> DESC, <alias>.id DESC`): the order of most lists
 * (docs/api/contract.md §3). `time` is the SQL expression (`m.created_at`, or a property path as
 * `t.createdAt` in an entity query), `timeOf` reads it from a row.
 */
export function newestFirst<T extends { id: string }>(
  time: string,
  timeOf: (row: T) => Date,
): KeysetOrder<T> {
  const alias = time.slice(0, time.indexOf('.'));
  return {
    columns: [
      { expression: time, direction: 'DESC', cast: 'timestamptz' },
      { expression: `${alias}.id`, direction: 'DESC', cast: 'uuid' },
    ],
    key: (row) => [timeOf(row).toISOString(), row.id],
  };
}

const flip = (direction: 'ASC' | 'DESC') => (direction === 'ASC' ? 'DESC' : 'ASC');

/**
 * Keyset pagination (never OFFSET): reads page_size + 1 rows after (or before) the cursor's key
 * on a stable order ending in `id`, and builds absolute `next`/`previous` URLs keeping the
 * request's other query parameters.
 */
@Injectable()
export class Paginator {
  private readonly codec: CursorCodec;

  constructor(@InjectConfig() config: PlatformConfig) {
    this.codec = new CursorCodec(config.cursorSecret);
  }

  async paginate<T extends ObjectLiteral, R>(
    qb: SelectQueryBuilder<T>,
    order: KeysetOrder<T>,
    query: PageQuery,
    req: Request,
    serialize: (row: T) => R,
  ): Promise<Page<R>> {
    const scope = `${req.method} ${req.baseUrl}${req.path}`;
    const size = query.page_size ?? DEFAULT_PAGE_SIZE;
    const cursor = query.cursor ? this.codec.decode(scope, query.cursor, order.columns.length) : undefined;
    const backward = cursor?.d === 'p';

    const rows = await this.window(qb.clone(), order.columns, cursor?.k, backward, size + 1);
    const hasMore = rows.length > size;
    const page = rows.slice(0, size);
    if (backward) page.reverse();

    // Whether any row lies beyond `row` in a direction: one indexed LIMIT 1 probe.
    const beyond = async (row: T, towardsStart: boolean) =>
      (await this.window(qb.clone(), order.columns, order.key(row), towardsStart, 1)).length > 0;
    const first = page.at(0);
    const last = page.at(-1);
    let hasBefore = false;
    let hasAfter = hasMore;
    if (cursor && backward) {
      hasBefore = hasMore;
      hasAfter = last ? await beyond(last, false) : true;
    } else if (cursor) {
      hasBefore = first ? await beyond(first, true) : true;
    }

    const link = (d: 'n' | 'p', row: T | undefined, fallback?: KeyValue[]) => {
      const k = row ? order.key(row) : fallback;
      return k ? urlWithQuery(req, { cursor: this.codec.encode(scope, { d, k }) }) : null;
    };
    return {
      results: page.map(serialize),
      next: hasAfter ? link('n', last, cursor?.k) : null,
      previous: hasBefore ? link('p', first, cursor?.k) : null,
    };
  }

  private window<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    columns: KeysetColumn[],
    key: KeyValue[] | undefined,
    backward: boolean,
    limit: number,
  ): Promise<T[]> {
    const dir = (c: KeysetColumn) => (backward ? flip(c.direction) : c.direction);
    if (key) {
      const params: Record<string, KeyValue> = {};
      const value = (i: number) => {
        params[`__k${i}`] = key[i];
        return columns[i].cast ? `CAST(:__k${i} AS ${columns[i].cast})` : `:__k${i}`;
      };
      const uniform = columns.every((c) => c.direction === columns[0].direction);
      if (uniform) {
        const op = dir(columns[0]) === 'ASC' ? '>' : '<';
        qb.andWhere(
          `(${columns.map((c) => c.expression).join(', ')}) ${op} (${columns.map((_, i) => value(i)).join(', ')})`,
          params,
        );
      } else {
        const branches = columns.map((c, i) => {
          const equal = columns.slice(0, i).map((p, j) => `${p.expression} = ${value(j)}`);
          return `(${[...equal, `${c.expression} ${dir(c) === 'ASC' ? '>' : '<'} ${value(i)}`].join(' AND ')})`;
        });
        qb.andWhere(`(${branches.join(' OR ')})`, params);
      }
    }
    qb.orderBy();
    for (const c of columns) qb.addOrderBy(c.expression, dir(c));
    return qb.limit(limit).getMany();
  }
}
