import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import {
  type BroadcastScheduleView,
  type EventEnvelope,
  type SlotView,
  type UserProfile,
  type ValidationIssue,
} from '@media/contracts';
import { AclClient, DocumentsClient } from '@media/app-clients';
import { DeletedDocuments, type DocumentDeletedPayload } from '@media/platform';
import { isFormBody, validateDto } from '@media/kernel';
import { NotFound, PreconditionFailed, ValidationFailed, type AuthUser } from '@media/core';
import { Paginator, type Page } from '@media/http';
import type { DataSource, EntityManager } from 'typeorm';
import { BroadcastSchedule } from './broadcast-schedule.entity';
import { parseSlotsCsv } from './csv-slots';
import type { ListSchedulesQuery, ListSlotsQuery } from './dto/lineup.query';
import { CreateScheduleDto, type UpdateScheduleDto } from './dto/schedule.dto';
import type { SlotDto } from './dto/slot.dto';
import { ifMatchAllows, scheduleView, slotCount, slotView, uploaderOf } from './lineup.view';
import { Slot } from './slot.entity';
import { SlotAsset } from './slot-asset.entity';

/** A schedule as answered, with the revision its ETag carries. */
export interface VersionedSchedule {
  schedule: BroadcastScheduleView;
  revision: number;
}

const bump = (manager: EntityManager, scheduleId: string) =>
  manager.query(`UPDATE broadcast_schedules SET revision = revision + 1, updated_at = now() WHERE id = $1`, [
    scheduleId,
  ]);

/** Broadcast schedules, their slots and slot assets (updating a schedule, attaching documents: docs/api/contract.md §4.2, §4a). */
@Injectable()
export class LineupService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(AclClient) private readonly directory: AclClient,
    @Inject(DocumentsClient) private readonly documents: DocumentsClient,
    @Inject(DeletedDocuments) private readonly deletedDocuments: DeletedDocuments,
  ) {
    deletedDocuments.onDeleted((event, manager) => this.onDocumentDeleted(event, manager));
  }

  /**
   * `POST /lineup`: slots as JSON, or a CSV `file` beside the form fields. Every bad field and
   * every bad CSV line is reported in one 422; nothing is stored unless all of it is valid.
   */
  async create(body: unknown, file: Buffer | undefined, caller: AuthUser): Promise<VersionedSchedule> {
    const issues: ValidationIssue[] = [];
    let dto: CreateScheduleDto | undefined;
    try {
      dto = await validateDto(CreateScheduleDto, body === undefined ? {} : body, ['body'], isFormBody(body));
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      issues.push(...error.issues);
    }
    let slots: SlotDto[] = dto?.slots ?? [];
    if (file) {
      const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (raw.slots !== undefined)
        issues.push({
          loc: ['body', 'slots'],
          msg: 'Send slots or a CSV file, not both',
          type: 'value_error',
        });
      const csv = await parseSlotsCsv(file, { from: raw.effective_from, to: raw.effective_to });
      issues.push(...csv.issues);
      slots = csv.slots;
    }
    if (issues.length > 0 || !dto) throw new ValidationFailed(issues);

    // Asked before writing, so an acl outage is a 503 with nothing stored.
    const profiles = await this.directory.profiles([caller.id]);
    const fields = dto;
    const id = await this.dataSource.transaction(async (manager) => {
      const inserted = (await manager.query(
        `INSERT INTO broadcast_schedules
           (medium, channel, month, year, title, version, effective_from, effective_to, uploaded_by, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [
          fields.medium,
          fields.channel,
          fields.month,
          fields.year,
          fields.title,
          fields.version ?? 1,
          fields.effective_from,
          fields.effective_to,
          caller.id,
          JSON.stringify(fields.metadata ?? {}),
        ],
      )) as { id: string }[];
      const scheduleId = inserted[0].id;
      if (slots.length > 0) {
        // One statement for any number of slots: arrays unnested server-side.
        await manager.query(
          `INSERT INTO slots (schedule_id, air_date, start_time, duration_seconds, title)
           SELECT $1, * FROM unnest($2::date[], $3::time[], $4::int[], $5::text[])`,
          [
            scheduleId,
            slots.map((s) => s.air_date),
            slots.map((s) => s.start_time),
            slots.map((s) => s.duration_seconds),
            slots.map((s) => s.title),
          ],
        );
      }
      return scheduleId;
    });
    return this.versioned(await this.findSchedule(id), profiles);
  }

  async get(id: string): Promise<VersionedSchedule> {
    const row = await this.findSchedule(id);
    return this.versioned(row, await this.directory.profiles([row.uploadedBy]));
  }

  async list(query: ListSchedulesQuery, req: Request): Promise<Page<BroadcastScheduleView>> {
    const qb = this.dataSource.getRepository(BroadcastSchedule).createQueryBuilder('b');
    if (query.medium !== undefined) qb.andWhere('b.medium = :medium', { medium: query.medium });
    if (query.channel !== undefined) qb.andWhere('b.channel = :channel', { channel: query.channel });
    if (query.month !== undefined) qb.andWhere('b.month = :month', { month: query.month });
    if (query.year !== undefined) qb.andWhere('b.year = :year', { year: query.year });
    const page = await this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'b.year', direction: 'DESC', cast: 'int' },
          { expression: 'b.month', direction: 'DESC', cast: 'int' },
          { expression: 'b.created_at', direction: 'DESC', cast: 'timestamptz' },
          { expression: 'b.id', direction: 'DESC', cast: 'uuid' },
        ],
        key: (b) => [b.year, b.month, b.createdAt.toISOString(), b.id],
      },
      query,
      req,
      (b) => b,
    );
    if (page.results.length === 0) return { ...page, results: [] };
    const [profiles, counts] = await Promise.all([
      this.directory.profiles(page.results.map((b) => b.uploadedBy)),
      this.slotCounts(page.results.map((b) => b.id)),
    ]);
    return {
      ...page,
      results: page.results.map((b) =>
        scheduleView(
          b,
          uploaderOf(b.uploadedBy, profiles.get(b.uploadedBy)),
          slotCount(counts.get(b.id) ?? []),
        ),
      ),
    };
  }

  /**
   * Updates a schedule: replaces the schedule's own fields. Checks after validation: 404, then a stale
   * `If-Match` (412), then slots the new range would leave outside (422).
   */
  async update(id: string, dto: UpdateScheduleDto, ifMatch: string | undefined): Promise<VersionedSchedule> {
    const existing = await this.findSchedule(id);
    const profiles = await this.directory.profiles([existing.uploadedBy]);
    await this.dataSource.transaction(async (manager) => {
      const row = await manager
        .getRepository(BroadcastSchedule)
        .createQueryBuilder('b')
        .setLock('pessimistic_write')
        .where('b.id = :id', { id: existing.id })
        .getOne();
      if (!row) throw new NotFound('Schedule', id);
      if (!ifMatchAllows(ifMatch, row.revision)) throw new PreconditionFailed();
      const [outside] = (await manager.query(
        `SELECT (SELECT count(*) FROM slots WHERE schedule_id = $1 AND air_date < $2)::int AS before,
                (SELECT count(*) FROM slots WHERE schedule_id = $1 AND air_date > $3)::int AS after`,
        [row.id, dto.effective_from, dto.effective_to],
      )) as { before: number; after: number }[];
      const issues: ValidationIssue[] = [];
      if (outside.before > 0)
        issues.push({
          loc: ['body', 'effective_from'],
          msg: `${outside.before} slot(s) air before effective_from ${dto.effective_from}`,
          type: 'value_error',
        });
      if (outside.after > 0)
        issues.push({
          loc: ['body', 'effective_to'],
          msg: `${outside.after} slot(s) air after effective_to ${dto.effective_to}`,
          type: 'value_error',
        });
      if (issues.length > 0) throw new ValidationFailed(issues);
      await manager.query(
        `UPDATE broadcast_schedules
            SET medium = $2, channel = $3, month = $4, year = $5, title = $6, version = $7,
                effective_from = $8, effective_to = $9, metadata = $10,
                revision = revision + 1, updated_at = now()
          WHERE id = $1`,
        [
          row.id,
          dto.medium,
          dto.channel,
          dto.month,
          dto.year,
          dto.title,
          dto.version ?? row.version,
          dto.effective_from,
          dto.effective_to,
          JSON.stringify(dto.metadata ?? row.metadata),
        ],
      );
    });
    return this.versioned(await this.findSchedule(existing.id), profiles);
  }

  async slots(id: string, query: ListSlotsQuery, req: Request): Promise<Page<SlotView>> {
    const scheduleId = id.toLowerCase();
    const qb = this.dataSource
      .getRepository(Slot)
      .createQueryBuilder('s')
      .where('s.schedule_id = :scheduleId', { scheduleId });
    // The page is read first, so a bad cursor is a 422 before an unknown schedule's 404 (docs/api/contract.md §1).
    const page = await this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 's.air_date', direction: 'ASC', cast: 'date' },
          { expression: 's.start_time', direction: 'ASC', cast: 'time' },
          { expression: 's.id', direction: 'ASC', cast: 'uuid' },
        ],
        key: (s) => [s.airDate, s.startTime, s.id],
      },
      query,
      req,
      (s) => s,
    );
    if (page.results.length === 0) await this.findSchedule(scheduleId);
    const assets = await this.assetsOf(page.results.map((s) => s.id));
    return { ...page, results: page.results.map((s) => slotView(s, assets.get(s.id) ?? [])) };
  }

  /**
   * Attaches a document to a slot: the document is checked with documents first (a body 422 before the slot's 404,
   * docs/api/contract.md §1 order); attaching it twice changes nothing (and keeps the ETag).
   */
  async attach(slotId: string, documentId: string, caller: AuthUser): Promise<VersionedSchedule> {
    const document = documentId.toLowerCase();
    await this.documents.requireLive(document);
    const scheduleId = await this.scheduleOfSlot(this.dataSource.manager, slotId);
    const schedule = await this.findSchedule(scheduleId);
    const profiles = await this.directory.profiles([schedule.uploadedBy]);
    await this.dataSource.transaction(async (manager) => {
      // Locks in one order everywhere (document, then schedule), as the deletion event takes them.
      await this.deletedDocuments.keep(manager, document);
      await this.lockSchedule(manager, scheduleId);
      const inserted = (await manager.query(
        `INSERT INTO slot_assets (slot_id, document_id, attached_by, attached_at)
         SELECT id, $2, $3, now() FROM slots WHERE id = $1
         ON CONFLICT DO NOTHING RETURNING slot_id`,
        [slotId.toLowerCase(), document, caller.id],
      )) as unknown[];
      if (inserted.length > 0) await bump(manager, scheduleId);
    });
    return this.versioned(await this.findSchedule(scheduleId), profiles);
  }

  /** Detach: 404 when the slot is unknown or the document is not attached to it. */
  async detach(slotId: string, documentId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const scheduleId = await this.scheduleOfSlot(manager, slotId);
      await this.deletedDocuments.lock(manager, documentId);
      await this.lockSchedule(manager, scheduleId);
      const removed = (await manager.query(
        `DELETE FROM slot_assets WHERE slot_id = $1 AND document_id = $2 RETURNING slot_id`,
        [slotId.toLowerCase(), documentId.toLowerCase()],
      )) as [unknown[], number];
      if (removed[1] === 0) throw new NotFound('Attachment of document', documentId);
      await bump(manager, scheduleId);
    });
  }

  /**
   * `documents.document.deleted` (via DeletedDocuments: once per event, the document locked and
   * remembered): the document's attachments disappear and their schedules' ETags move on.
   */
  private async onDocumentDeleted(
    event: EventEnvelope<DocumentDeletedPayload>,
    manager: EntityManager,
  ): Promise<void> {
    const document = event.data.document_id;
    await manager.query(
      `WITH gone AS (DELETE FROM slot_assets WHERE document_id = $1 RETURNING slot_id)
       UPDATE broadcast_schedules b SET revision = b.revision + 1, updated_at = now()
        WHERE b.id IN (SELECT s.schedule_id FROM slots s WHERE s.id IN (SELECT slot_id FROM gone))`,
      [document],
    );
  }

  private async findSchedule(id: string): Promise<BroadcastSchedule> {
    const row = await this.dataSource.getRepository(BroadcastSchedule).findOneBy({ id: id.toLowerCase() });
    if (!row) throw new NotFound('Schedule', id);
    return row;
  }

  private async scheduleOfSlot(manager: EntityManager, slotId: string): Promise<string> {
    const rows = (await manager.query(`SELECT schedule_id FROM slots WHERE id = $1`, [
      slotId.toLowerCase(),
    ])) as {
      schedule_id: string;
    }[];
    if (rows.length === 0) throw new NotFound('Slot', slotId);
    return rows[0].schedule_id;
  }

  private async lockSchedule(manager: EntityManager, scheduleId: string): Promise<void> {
    await manager.query(`SELECT 1 FROM broadcast_schedules WHERE id = $1 FOR UPDATE`, [scheduleId]);
  }

  private async versioned(
    row: BroadcastSchedule,
    profiles: Map<string, UserProfile>,
  ): Promise<VersionedSchedule> {
    const counts = await this.slotCounts([row.id]);
    return {
      schedule: scheduleView(
        row,
        uploaderOf(row.uploadedBy, profiles.get(row.uploadedBy)),
        slotCount(counts.get(row.id) ?? []),
      ),
      revision: row.revision,
    };
  }

  /** Per-date slot counts of several schedules in one indexed GROUP BY. */
  private async slotCounts(ids: string[]): Promise<Map<string, { air_date: string; count: number }[]>> {
    const rows = (await this.dataSource.query(
      `SELECT schedule_id, air_date::text AS air_date, count(*)::int AS count
         FROM slots WHERE schedule_id = ANY($1::uuid[])
        GROUP BY schedule_id, air_date`,
      [ids],
    )) as { schedule_id: string; air_date: string; count: number }[];
    const out = new Map<string, { air_date: string; count: number }[]>();
    for (const row of rows) {
      const list = out.get(row.schedule_id) ?? [];
      list.push({ air_date: row.air_date, count: row.count });
      out.set(row.schedule_id, list);
    }
    return out;
  }

  private async assetsOf(slotIds: string[]): Promise<Map<string, SlotAsset[]>> {
    const out = new Map<string, SlotAsset[]>();
    if (slotIds.length === 0) return out;
    const rows = await this.dataSource
      .getRepository(SlotAsset)
      .createQueryBuilder('a')
      .where('a.slot_id = ANY(:ids::uuid[])', { ids: slotIds })
      .orderBy('a.attached_at', 'ASC')
      .addOrderBy('a.document_id', 'ASC')
      .getMany();
    for (const row of rows) out.set(row.slotId, [...(out.get(row.slotId) ?? []), row]);
    return out;
  }
}
