/**
 * Local-time arithmetic for quiet hours and digests (docs/api/contract.md §7.3), with the zone's
 * own daylight-saving rules as `Intl.DateTimeFormat` knows them. Pure functions of an instant.
 *
 * A local time that does not exist on a day (skipped by a daylight-saving change) moves forward
 * by the gap (02:30 on the March change in Europe/Berlin is 03:30 CEST); one that exists twice
 * is its first occurrence.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A zone name `Intl.DateTimeFormat` accepts, `UTC` included. */
export function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100) return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** `HH:MM` -> minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** A calendar day, as a UTC midnight in ms (days are counted without any zone). */
type Day = number;

interface LocalTime {
  day: Day;
  /** Minutes after local midnight. */
  minutes: number;
  /** The wall clock as if it were UTC, in ms (seconds kept). */
  wall: number;
}

export function localTime(instant: Date, zone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const day = Date.UTC(parts.year, parts.month - 1, parts.day);
  const minutes = parts.hour * 60 + parts.minute;
  return { day, minutes, wall: day + minutes * 60_000 + parts.second * 1000 };
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return localTime(new Date(whole), zone).wall - whole;
}

/** The instant of a local time on a day (see the file's note on gaps and repeats). */
export function atLocal(day: Day, minutes: number, zone: string): Date {
  const wall = day + minutes * 60_000;
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const early = wall - before;
  const late = wall - after;
  const earlyValid = offsetAt(early, zone) === before;
  const lateValid = offsetAt(late, zone) === after;
  if (earlyValid && lateValid) return new Date(Math.min(early, late));
  if (lateValid) return new Date(late);
  // Valid with the offset before the change, or in the gap: the offset before the change puts it
  // after the gap, i.e. moved forward by the gap.
  return new Date(early);
}

export interface QuietHours {
  start: string;
  end: string;
}

export interface Period {
  start: Date;
  end: Date;
}

/**
 * The quiet period `now` falls in, or null. A period starts at `start` on a local day and ends at
 * the next `end` (the next day when the range crosses midnight), so a range from 22:00 to 07:00
 * is one period across a daylight-saving change, nine or eleven hours long.
 */
export function quietPeriodAt(now: Date, zone: string, quiet: QuietHours | null): Period | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const today = localTime(now, zone).day;
  for (const day of [today - DAY_MS, today]) {
    const from = atLocal(day, start, zone);
    const to = atLocal(end > start ? day : day + DAY_MS, end, zone);
    if (from.getTime() <= now.getTime() && now.getTime() < to.getTime()) return { start: from, end: to };
  }
  return null;
}

/** The first instant after `after` at local time `hhmm`. */
export function nextLocal(after: Date, zone: string, hhmm: string): Date {
  const minutes = minutesOf(hhmm);
  const today = localTime(after, zone).day;
  for (let k = 0; ; k += 1) {
    const at = atLocal(today + k * DAY_MS, minutes, zone);
    if (at.getTime() > after.getTime()) return at;
  }
}

/**
 * When the next daily digest is due: the next `digest_time` after `after`, or, when that falls
 * in quiet hours, their end.
 */
export function nextDigestAt(after: Date, zone: string, digestTime: string, quiet: QuietHours | null): Date {
  const at = nextLocal(after, zone, digestTime);
  return quietPeriodAt(at, zone, quiet)?.end ?? at;
}
