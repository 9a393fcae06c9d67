import { readFileSync } from 'node:fs';
import { isTimeZone } from './quiet-hours';

/**
 * The tz database's own spelling of zone names (docs/api/contract.md §7.3): `utc` is stored as
 * `UTC`, `europe/berlin` as `Europe/Berlin`, `us/pacific` as `US/Pacific`.
 *
 * Node gives no list that does this: `Intl.supportedValuesOf('timeZone')` lists canonical zones
 * only (no `US/Pacific`, no `UTC`), and `Intl.DateTimeFormat#resolvedOptions().timeZone` turns a
 * link into ICU's own canonical zone (`US/Pacific` into `America/Los_Angeles`, `Asia/Kolkata` into
 * `Asia/Calcutta`). The names come from the `tzdata` package instead: every zone and link of the
 * IANA database (its `zones` object, a link's value being its target), updated with each release.
 */
let spellings: Map<string, string> | undefined;

function tzDatabaseNames(): Map<string, string> {
  if (!spellings) {
    const data = JSON.parse(readFileSync(require.resolve('tzdata'), 'utf8')) as { zones: object };
    spellings = new Map(Object.keys(data.zones).map((name) => [name.toLowerCase(), name]));
  }
  return spellings;
}

/**
 * A zone or link name of the tz database in its own spelling, whatever the case it was given in,
 * when `Intl.DateTimeFormat` also accepts it (the local-time arithmetic uses it); else undefined.
 */
export function canonicalTimeZone(value: unknown): string | undefined {
  if (typeof value !== 'string' || !isTimeZone(value)) return undefined;
  return tzDatabaseNames().get(value.toLowerCase());
}
