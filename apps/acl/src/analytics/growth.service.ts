import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ValidationFailed } from '@media/core';
import type { DataSource } from 'typeorm';
import type { GrowthQuery } from './dto/growth.query';
import { bucketCount, defaultGrowthRange, MAX_GROWTH_POINTS } from './growth-range';
import { GROWTH_SQL, growthParams } from './growth.sql';
import type { GrowthRow, GrowthSeries } from './growth.view';

/** New-user growth, users of every status. */
@Injectable()
export class GrowthService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async series(query: GrowthQuery, now = new Date()): Promise<GrowthSeries> {
    const interval = query.interval ?? 'month';
    const defaults = defaultGrowthRange(now);
    const dateFrom = query.date_from ?? defaults.date_from;
    const dateTo = query.date_to ?? defaults.date_to;
    for (const [field, value] of [
      ['date_from', dateFrom],
      ['date_to', dateTo],
    ] as const) {
      // PostgreSQL has no year 0, and a bucket past 9999 could not be written as YYYY-MM-DD.
      if (value < '0001-01-01' || value > '9998-12-31') {
        throw ValidationFailed.at(
          ['query', field],
          'Date should be between 0001-01-01 and 9998-12-31',
          'value_error',
        );
      }
    }
    if (dateFrom > dateTo) {
      // Blame the bound the client chose: with only date_from given, it is date_from that is too late.
      const loc = query.date_to !== undefined ? 'date_to' : 'date_from';
      throw ValidationFailed.at(['query', loc], 'date_from must not be after date_to', 'value_error');
    }
    const points = bucketCount(dateFrom, dateTo, interval);
    if (points > MAX_GROWTH_POINTS) {
      throw ValidationFailed.at(
        ['query', 'interval'],
        `The range needs ${points} ${interval} buckets; at most ${MAX_GROWTH_POINTS} are allowed: use a wider interval or a shorter range`,
        'value_error',
      );
    }
    const series: GrowthRow[] = await this.dataSource.query(
      GROWTH_SQL,
      growthParams(dateFrom, dateTo, interval),
    );
    return {
      interval,
      date_from: dateFrom,
      date_to: dateTo,
      total_new_users: series.reduce((sum, row) => sum + row.new_users, 0),
      series,
    };
  }
}
