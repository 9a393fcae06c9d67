import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { BookingLineView, BookingStatus, BookingSummaryView, BookingView } from '@media/contracts';
import { type AuthUser, Conflict, NotFound, ValidationFailed } from '@media/core';
import { newestFirst, type Page, Paginator } from '@media/http';
import { uniqueViolation } from '@media/kernel';
import type { DataSource, EntityManager } from 'typeorm';
import { assertTransition } from './booking-status';
import {
  ASSET_COLUMNS,
  assetsByLine,
  LINE_COLUMNS,
  toLineView,
  toSummaryView,
  type AssetRow,
  type BookingRow,
  type LineRow,
} from './booking.view';
import { Booking } from './booking.entity';
import { BookingLine } from './booking-line.entity';
import type {
  CreateBookingDto,
  CreateLineDto,
  ListBookingsQuery,
  ListLinesQuery,
  UpdateBookingDto,
  UpdateLineDto,
} from './dto/booking.dto';

/** A booking with its totals, summed from its lines in SQL (numeric). */
const BOOKING_SELECT = `
  SELECT b.id, b.reference, b.client_name, b.agency, b.status, b.currency, b.created_by,
         b.created_at, b.updated_at,
         coalesce(t.rate_card, 0)::numeric(20, 2)::text AS rate_card_total,
         coalesce(t.booked, 0)::numeric(20, 2)::text AS booked_total
    FROM bookings b
    LEFT JOIN LATERAL (
      SELECT sum(l.rate_card_amount) AS rate_card, sum(l.booked_amount) AS booked
        FROM booking_lines l WHERE l.order_id = b.id
    ) t ON true`;

/** The first day after `date` (YYYY-MM-DD), for half-open ranges of whole UTC days. */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** Bookings and their lines (docs/api/contract.md §4.12, §4a). */
@Injectable()
export class BookingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  /**
   * Creates a booking with its lines in one transaction. The booking is inserted as DRAFT and
   * moved to the requested status after its lines, so the revenue rollup counts a CONFIRMED
   * booking's lines in one sorted statement (see the revenue_days migration).
   */
  async create(dto: CreateBookingDto, user: AuthUser): Promise<BookingView> {
    const lines = dto.lines ?? [];
    const issues = lines.flatMap((line, i) =>
      line.start_date > line.end_date
        ? [
            {
              loc: ['body', 'lines', String(i), 'end_date'],
              msg: 'end_date must be on or after start_date',
              type: 'value_error',
            },
          ]
        : [],
    );
    if (issues.length) throw new ValidationFailed(issues);
    let id: string;
    try {
      id = await this.dataSource.transaction(async (manager) => {
        const [row] = (await manager.query(
          `INSERT INTO bookings (reference, client_name, agency, currency, created_by)
           VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [dto.reference, dto.client_name, dto.agency ?? null, dto.currency ?? 'USD', user.id],
        )) as { id: string }[];
        await this.insertLines(manager, row.id, lines);
        const status = dto.status ?? 'DRAFT';
        if (status !== 'DRAFT') {
          await manager.query(`UPDATE bookings SET status = $2 WHERE id = $1`, [row.id, status]);
        }
        return row.id;
      });
    } catch (error) {
      if (uniqueViolation(error) === 'bookings_reference_key')
        throw new Conflict(
          `A booking with reference '${dto.reference}' already exists.`,
          'booking_reference_taken',
        );
      throw error;
    }
    return this.get(id);
  }

  /** A booking read: three queries (booking with totals, lines, assets) whatever the line count. */
  async get(id: string): Promise<BookingView> {
    const orderId = id.toLowerCase();
    const [booking] = (await this.dataSource.query(`${BOOKING_SELECT} WHERE b.id = $1`, [
      orderId,
    ])) as BookingRow[];
    if (!booking) throw new NotFound('Booking', id);
    const lines = (await this.dataSource.query(
      `SELECT ${LINE_COLUMNS} FROM booking_lines l WHERE l.order_id = $1 ORDER BY l.seq`,
      [orderId],
    )) as LineRow[];
    const assets = lines.length
      ? ((await this.dataSource.query(
          `SELECT ${ASSET_COLUMNS}
             FROM line_assets a JOIN booking_lines l ON l.id = a.line_id
            WHERE l.order_id = $1
            ORDER BY a.created_at, a.id`,
          [orderId],
        )) as AssetRow[])
      : [];
    const byLine = assetsByLine(assets);
    return { ...toSummaryView(booking), lines: lines.map((l) => toLineView(l, byLine.get(l.id) ?? [])) };
  }

  /** Newest first; filters are equalities and a created range, each served by an index. */
  async list(query: ListBookingsQuery, req: Request): Promise<Page<BookingSummaryView>> {
    if (query.created_from && query.created_to && query.created_from > query.created_to) {
      throw ValidationFailed.at(['query', 'created_to'], 'created_to must be on or after created_from');
    }
    const qb = this.dataSource.getRepository(Booking).createQueryBuilder('b');
    if (query.status) qb.andWhere('b.status = :status', { status: query.status });
    if (query.client_name) qb.andWhere('b.client_name = :client', { client: query.client_name });
    if (query.created_from) {
      qb.andWhere(`b.created_at >= CAST(:from AS timestamp) AT TIME ZONE 'UTC'`, {
        from: query.created_from,
      });
    }
    if (query.created_to) {
      qb.andWhere(`b.created_at < CAST(:to AS timestamp) AT TIME ZONE 'UTC'`, {
        to: dayAfter(query.created_to),
      });
    }
    const page = await this.paginator.paginate(
      qb,
      newestFirst('b.created_at', (b) => b.createdAt),
      query,
      req,
      (b) => b,
    );
    const ids = page.results.map((b) => b.id);
    const rows = ids.length
      ? ((await this.dataSource.query(`${BOOKING_SELECT} WHERE b.id = ANY($1::uuid[])`, [
          ids,
        ])) as BookingRow[])
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      ...page,
      results: page.results.flatMap((b) => {
        const row = byId.get(b.id);
        return row ? [toSummaryView(row)] : [];
      }),
    };
  }

  /** A status change (docs/api/contract.md §4.12) and/or client fields, under the booking's row lock. */
  async update(id: string, dto: UpdateBookingDto): Promise<BookingView> {
    const fields = (['status', 'client_name', 'agency'] as const).filter((f) => dto[f] !== undefined);
    if (fields.length === 0) {
      throw ValidationFailed.at(['body'], 'At least one of status, client_name, agency is required');
    }
    const orderId = id.toLowerCase();
    await this.dataSource.transaction(async (manager) => {
      const current = await this.lockBooking(manager, orderId, id);
      if (dto.status !== undefined) assertTransition(id, current, dto.status);
      const sets = fields.map((f, i) => `${f} = $${i + 2}`);
      await manager.query(`UPDATE bookings SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
        orderId,
        ...fields.map((f) => dto[f] ?? null),
      ]);
    });
    return this.get(orderId);
  }

  async addLine(orderId: string, dto: CreateLineDto): Promise<BookingLineView> {
    if (dto.start_date > dto.end_date) {
      throw ValidationFailed.at(['body', 'end_date'], 'end_date must be on or after start_date');
    }
    const order = orderId.toLowerCase();
    const lineId = await this.dataSource.transaction(async (manager) => {
      await this.lockOpenBooking(manager, order, orderId);
      const [id] = await this.insertLines(manager, order, [dto]);
      return id;
    });
    return this.line(order, lineId);
  }

  async listLines(orderId: string, query: ListLinesQuery, req: Request): Promise<Page<BookingLineView>> {
    const order = orderId.toLowerCase();
    if (!(await this.dataSource.getRepository(Booking).existsBy({ id: order }))) {
      throw new NotFound('Booking', orderId);
    }
    const qb = this.dataSource
      .getRepository(BookingLine)
      .createQueryBuilder('l')
      .where('l.order_id = :order', { order });
    const page = await this.paginator.paginate(
      qb,
      { columns: [{ expression: 'l.seq', direction: 'ASC', cast: 'bigint' }], key: (l) => [l.seq] },
      query,
      req,
      (l) => l,
    );
    const ids = page.results.map((l) => l.id);
    const [lines, assets] = ids.length
      ? await Promise.all([
          this.dataSource.query(`SELECT ${LINE_COLUMNS} FROM booking_lines l WHERE l.id = ANY($1::uuid[])`, [
            ids,
          ]) as Promise<LineRow[]>,
          this.dataSource.query(
            `SELECT ${ASSET_COLUMNS} FROM line_assets a WHERE a.line_id = ANY($1::uuid[]) ORDER BY a.created_at, a.id`,
            [ids],
          ) as Promise<AssetRow[]>,
        ])
      : [[], []];
    const byId = new Map(lines.map((l) => [l.id, l]));
    const byLine = assetsByLine(assets);
    return {
      ...page,
      results: page.results.flatMap((l) => {
        const row = byId.get(l.id);
        return row ? [toLineView(row, byLine.get(row.id) ?? [])] : [];
      }),
    };
  }

  /** Partial update of a line of that order (404 for a line of another order). */
  async updateLine(orderId: string, lineId: string, dto: UpdateLineDto): Promise<BookingLineView> {
    const fields = (
      [
        'platform',
        'category',
        'channel',
        'start_date',
        'end_date',
        'spots',
        'rate_card_amount',
        'booked_amount',
      ] as const
    ).filter((f) => dto[f] !== undefined);
    if (fields.length === 0) throw ValidationFailed.at(['body'], 'At least one field is required');
    const order = orderId.toLowerCase();
    const line = lineId.toLowerCase();
    await this.dataSource.transaction(async (manager) => {
      await this.lockOpenBooking(manager, order, orderId);
      const [current] = (await manager.query(
        `SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date
           FROM booking_lines WHERE id = $1 AND order_id = $2`,
        [line, order],
      )) as { start_date: string; end_date: string }[];
      if (!current) throw new NotFound('Line', lineId);
      const start = dto.start_date ?? current.start_date;
      const end = dto.end_date ?? current.end_date;
      if (start > end) {
        const at = dto.end_date !== undefined ? 'end_date' : 'start_date';
        throw ValidationFailed.at(['body', at], 'end_date must be on or after start_date');
      }
      const sets = fields.map((f, i) => `${f} = $${i + 2}`);
      await manager.query(`UPDATE booking_lines SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
        line,
        ...fields.map((f) => dto[f]),
      ]);
      await manager.query(`UPDATE bookings SET updated_at = now() WHERE id = $1`, [order]);
    });
    return this.line(order, line);
  }

  private async line(orderId: string, lineId: string): Promise<BookingLineView> {
    const [row] = (await this.dataSource.query(
      `SELECT ${LINE_COLUMNS} FROM booking_lines l WHERE l.id = $1 AND l.order_id = $2`,
      [lineId, orderId],
    )) as LineRow[];
    if (!row) throw new NotFound('Line', lineId);
    const assets = (await this.dataSource.query(
      `SELECT ${ASSET_COLUMNS} FROM line_assets a WHERE a.line_id = $1 ORDER BY a.created_at, a.id`,
      [lineId],
    )) as AssetRow[];
    return toLineView(row, assets);
  }

  /** Inserts lines in the given order (their `seq`), returning their ids in that order. */
  private async insertLines(
    manager: EntityManager,
    orderId: string,
    lines: CreateLineDto[],
  ): Promise<string[]> {
    if (lines.length === 0) return [];
    const rows = (await manager.query(
      `INSERT INTO booking_lines
         (order_id, platform, category, channel, start_date, end_date, spots, rate_card_amount, booked_amount)
       SELECT $1, t.platform, t.category, t.channel, t.start_date, t.end_date, t.spots, t.rate_card, t.booked
         FROM unnest($2::text[], $3::text[], $4::text[], $5::date[], $6::date[], $7::int[], $8::numeric[], $9::numeric[])
              WITH ORDINALITY AS t (platform, category, channel, start_date, end_date, spots, rate_card, booked, n)
        ORDER BY t.n
       RETURNING id, seq`,
      [
        orderId,
        lines.map((l) => l.platform),
        lines.map((l) => l.category),
        lines.map((l) => l.channel),
        lines.map((l) => l.start_date),
        lines.map((l) => l.end_date),
        lines.map((l) => l.spots),
        lines.map((l) => l.rate_card_amount),
        lines.map((l) => l.booked_amount),
      ],
    )) as { id: string; seq: string }[];
    return rows.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))).map((r) => r.id);
  }

  /** Locks the booking row (status changes and line writes take turns); 404 when unknown. */
  private async lockBooking(manager: EntityManager, orderId: string, given: string): Promise<BookingStatus> {
    const [row] = (await manager.query(`SELECT status FROM bookings WHERE id = $1 FOR UPDATE`, [
      orderId,
    ])) as {
      status: BookingStatus;
    }[];
    if (!row) throw new NotFound('Booking', given);
    return row.status;
  }

  /** As lockBooking, and a CANCELLED booking's lines are closed: 409 naming the status. */
  private async lockOpenBooking(manager: EntityManager, orderId: string, given: string): Promise<void> {
    const status = await this.lockBooking(manager, orderId, given);
    if (status === 'CANCELLED') {
      throw new Conflict(
        `Booking ${given} is CANCELLED; its lines can no longer change.`,
        'booking_cancelled',
      );
    }
  }
}
