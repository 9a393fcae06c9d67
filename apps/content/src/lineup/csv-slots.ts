import { parse, type CsvError } from 'csv-parse/sync';
import type { ValidationIssue } from '@media/contracts';
import { ValidationFailed } from '@media/core';
import { isCleanText, validateDto } from '@media/kernel';
import {
  DURATION_MAX,
  isSlotTime,
  isStorableDate,
  MAX_SLOTS,
  outsideRange,
  SLOT_TITLE_MAX,
  SlotDto,
  type EffectiveRange,
} from './dto/slot.dto';

/** The header of a lineup CSV, in this order or any other. */
export const CSV_COLUMNS = ['air_date', 'start_time', 'duration_seconds', 'title'] as const;
type Column = (typeof CSV_COLUMNS)[number];

export interface CsvSlots {
  slots: SlotDto[];
  issues: ValidationIssue[];
}

const FILE = ['body', 'file'];

const newlines = (text: string) => {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * Reads the slots of a lineup CSV (header `air_date,start_time,duration_seconds,title`; quoted
 * fields with commas, quotes and newlines; a BOM; LF or CRLF). Every bad line is reported at
 * `["body","file","<line>","<column>"]`, the header being line 1 (docs/api/contract.md §4.2); rows are
 * validated exactly as JSON slots are.
 */
export async function parseSlotsCsv(content: Buffer, range: EffectiveRange): Promise<CsvSlots> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return {
      slots: [],
      issues: [{ loc: FILE, msg: 'The file is not valid UTF-8 text', type: 'value_error' }],
    };
  }
  // csv-parse counts a CRLF inside a quoted field as two lines; with LF alone its line numbers are exact.
  text = text.replace(/\r\n/g, '\n');

  const issues: ValidationIssue[] = [];
  const records = parse(text, {
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      if (!error) return;
      const line = String((error as CsvError & { lines?: number }).lines ?? '');
      issues.push({ loc: line ? [...FILE, line] : FILE, msg: error.message, type: 'value_error' });
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];

  const lineOf = (entry: { record: string[]; info: { lines: number } }) =>
    entry.info.lines - entry.record.reduce((n, field) => n + newlines(field), 0);

  const [head, ...rows] = records;
  if (!head) {
    issues.push({ loc: FILE, msg: `The file needs the header ${CSV_COLUMNS.join(',')}`, type: 'missing' });
    return { slots: [], issues: sortIssues(issues) };
  }
  const headerLine = String(lineOf(head));
  const header = head.record.map((name) => name.trim());
  const headerIssues: ValidationIssue[] = [];
  header.forEach((name, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name))
      headerIssues.push({
        loc: [...FILE, headerLine, name || String(i + 1)],
        msg: 'Unknown column',
        type: 'extra_forbidden',
      });
    else if (header.indexOf(name) !== i)
      headerIssues.push({ loc: [...FILE, headerLine, name], msg: 'Column given twice', type: 'value_error' });
  });
  for (const column of CSV_COLUMNS) {
    if (!header.includes(column))
      headerIssues.push({ loc: [...FILE, headerLine, column], msg: 'Column required', type: 'missing' });
  }
  if (headerIssues.length > 0) return { slots: [], issues: sortIssues([...issues, ...headerIssues]) };
  if (rows.length > MAX_SLOTS) {
    issues.push({ loc: FILE, msg: `The file may hold at most ${MAX_SLOTS} slots`, type: 'too_long' });
    return { slots: [], issues };
  }

  const slots: SlotDto[] = [];
  for (const row of rows) {
    const line = String(lineOf(row));
    if (row.record.length > header.length) {
      issues.push({
        loc: [...FILE, line],
        msg: `Expected ${header.length} fields, found ${row.record.length}`,
        type: 'value_error',
      });
      continue;
    }
    const plain: Partial<Record<Column, string>> = {};
    header.forEach((name, i) => {
      if (i < row.record.length) plain[name as Column] = row.record[i];
    });
    try {
      const slot = plainSlot(plain) ?? (await validateDto(SlotDto, plain, [...FILE, line], true));
      const outside = outsideRange(slot.air_date, range);
      if (outside) issues.push({ loc: [...FILE, line, 'air_date'], msg: outside, type: 'value_error' });
      else slots.push(slot);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      issues.push(...error.issues);
    }
  }
  return { slots, issues: sortIssues(issues) };
}

/** Characters whose length class-validator counts differently from String#length. */
const COUNTED_APART = /[\uFE0E\uFE0F\uD800-\uDFFF]/;

/**
 * The slot of a plainly valid row, or undefined to let the DTO decide (and word the issues).
 * It accepts only what SlotDto accepts, so a 10,000-row file is not 10,000 class-validator runs.
 */
function plainSlot(row: Partial<Record<Column, string>>): SlotDto | undefined {
  const { air_date, start_time, duration_seconds, title: raw } = row;
  if (!isStorableDate(air_date) || !isSlotTime(start_time)) return undefined;
  if (duration_seconds === undefined || !/^\d{1,6}$/.test(duration_seconds)) return undefined;
  const duration = Number(duration_seconds);
  if (duration < 1 || duration > DURATION_MAX || raw === undefined) return undefined;
  const title = raw.trim();
  if (title.length < 1 || title.length > SLOT_TITLE_MAX || COUNTED_APART.test(title) || !isCleanText(title))
    return undefined;
  return Object.assign(new SlotDto(), { air_date, start_time, duration_seconds: duration, title });
}

/** Issues in file order (line, then column order as found). */
function sortIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const line = (issue: ValidationIssue) => Number(issue.loc[2] ?? 0);
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => line(a.issue) - line(b.issue) || a.i - b.i)
    .map((x) => x.issue);
}
