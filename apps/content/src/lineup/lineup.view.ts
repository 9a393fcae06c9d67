import type {
  BroadcastScheduleView,
  ScheduleUploader,
  SlotView,
  UserProfile,
  Weekday,
} from '@media/contracts';
import type { BroadcastSchedule } from './broadcast-schedule.entity';
import type { Slot } from './slot.entity';
import type { SlotAsset } from './slot-asset.entity';

const WEEKDAYS: Weekday[] = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The weekday of a `YYYY-MM-DD` calendar date (no time zone involved). */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
}

/** `slot_count` from per-date counts: every date with slots, ascending. */
export function slotCount(rows: { air_date: string; count: number }[]): BroadcastScheduleView['slot_count'] {
  const sorted = [...rows].sort((a, b) => (a.air_date < b.air_date ? -1 : a.air_date > b.air_date ? 1 : 0));
  const out: BroadcastScheduleView['slot_count'] = {};
  for (const row of sorted) {
    if (row.count > 0) out[row.air_date] = { day: weekdayOf(row.air_date), count: row.count };
  }
  return out;
}

/** The strong ETag of a schedule revision (docs/api/contract.md §4.2). */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/**
 * Whether an `If-Match` header lets a write go ahead: absent, `*`, or listing the current ETag
 * (strong comparison, so a weak `W/"n"` never matches).
 */
export function ifMatchAllows(header: string | undefined, revision: number): boolean {
  if (header === undefined) return true;
  const current = etagOf(revision);
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === current);
}

export function uploaderOf(id: string, profile: UserProfile | undefined): ScheduleUploader {
  return { id, name: profile?.name ?? null, employee_number: profile?.employee_number ?? null };
}

export function scheduleView(
  row: BroadcastSchedule,
  uploader: ScheduleUploader,
  counts: BroadcastScheduleView['slot_count'],
): BroadcastScheduleView {
  return {
    id: row.id,
    medium: row.medium,
    channel: row.channel,
    month: row.month,
    year: row.year,
    title: row.title,
    version: row.version,
    effective_from: row.effectiveFrom,
    effective_to: row.effectiveTo,
    uploaded_by: uploader,
    slot_count: counts,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function slotView(row: Slot, assets: SlotAsset[]): SlotView {
  return {
    id: row.id,
    air_date: row.airDate,
    start_time: row.startTime.slice(0, 5),
    duration_seconds: row.durationSeconds,
    title: row.title,
    assets: assets.map((a) => ({
      document_id: a.documentId,
      attached_by: a.attachedBy,
      attached_at: a.attachedAt.toISOString(),
    })),
  };
}
