/** Media of a broadcast schedule. */
export const MEDIA = ['TV', 'RADIO', 'DIGITAL'] as const;
export type Medium = (typeof MEDIA)[number];

/** Weekday abbreviations of `slot_count` (Monday first, docs/api/contract.md §3). */
export type Weekday = 'MON' | 'TUE' | 'WED' | 'THU' | 'FRI' | 'SAT' | 'SUN';

/** The uploader of a schedule, as acl knows it (`null` fields when acl no longer knows the user). */
export interface ScheduleUploader {
  id: string;
  name: string | null;
  employee_number: string | null;
}

/** A broadcast schedule (seed "BroadcastSchedule", docs/api/contract.md §4.2). */
export interface BroadcastScheduleView {
  id: string;
  medium: Medium;
  channel: string;
  month: number;
  year: number;
  title: string;
  version: number;
  effective_from: string;
  effective_to: string;
  uploaded_by: ScheduleUploader;
  /** Every date that has slots, ascending. */
  slot_count: Record<string, { day: Weekday; count: number }>;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** A document attached to a slot. */
export interface SlotAssetView {
  document_id: string;
  attached_by: string;
  attached_at: string;
}

/** A slot of a schedule (docs/api/contract.md §4.2). */
export interface SlotView {
  id: string;
  air_date: string;
  /** `HH:MM`. */
  start_time: string;
  duration_seconds: number;
  title: string;
  assets: SlotAssetView[];
}

/** A story category (seed "StoryCategory"). */
export interface StoryCategoryView {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** Error codes content answers besides the platform's. */
export type ContentErrorCode = 'story_category_name_taken';
