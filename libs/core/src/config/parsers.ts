/**
 * Turning environment text into values: sizes, durations and integers, as class-transformer
 * `@Transform`s for the env classes (an unreadable value is left as text, so the validator
 * names the variable). Nest-free: the gateway uses them too.
 */

/** Whole numbers given as text (`"3001"`, `"-1"`). */
export const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** Parses sizes such as `1048576`, `512kb`, `1mb`, `50MiB` into bytes. */
export function parseByteSize(value: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k')
    ? 1024
    : unit.startsWith('m')
      ? 1024 ** 2
      : unit.startsWith('g')
        ? 1024 ** 3
        : 1;
  return Number(match[1]) * factor;
}

export const toBytes = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (parseByteSize(value) ?? value) : value;

/** Parses durations such as `2000` (ms), `30s`, `15m`, `24h`, `7d` into milliseconds. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) return undefined;
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] ?? 1;
  return Number(match[1]) * factor;
}

export const toDuration = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (parseDuration(value) ?? value) : value;
