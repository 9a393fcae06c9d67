import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { dirname } from 'node:path';

/**
 * A log file a child process writes to directly (its stdout/stderr are this file's
 * descriptor, not a pipe), so a server keeps logging even when the runner dies.
 */
export class ChildLog {
  private readonly start: number;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.start = existsSync(path) ? statSync(path).size : 0;
  }

  /** A descriptor opened for appending, for `stdio`; the caller closes it once spawned. */
  open(): number {
    return openSync(this.path, 'a');
  }

  /** The last lines written since this object was made, for an error message. */
  tail(lines = 15): string {
    if (!existsSync(this.path)) return '';
    const size = statSync(this.path).size;
    // A log rotated since (see rotateLog) starts again from nothing.
    const from = Math.max(size < this.start ? 0 : this.start, size - 8192);
    const length = size - from;
    if (length <= 0) return '';
    const buffer = Buffer.alloc(length);
    const fd = openSync(this.path, 'r');
    try {
      readSync(fd, buffer, 0, length, from);
    } finally {
      closeSync(fd);
    }
    return buffer
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim())
      .slice(-lines)
      .map((line) => `    ${line}`)
      .join('\n');
  }
}

/** Rotation of the servers' logs: past `maxBytes` a log moves to `.1` (`.1` to `.2`...), `keep` kept. */
export interface LogRotationOptions {
  maxBytes: number;
  keep: number;
}

/** 10 MiB a file, 3 earlier files: at most 40 MiB per server log. */
export const LOG_ROTATION: LogRotationOptions = { maxBytes: 10 * 1024 * 1024, keep: 3 };

/**
 * Rotates `path` when it holds more than `maxBytes`: `path.<keep-1>` becomes `path.<keep>` (the
 * oldest is overwritten), ..., a copy of `path` becomes `path.1`, and `path` is truncated to
 * nothing. The server keeps its descriptor: opened for appending, its next write lands at the
 * new end of the emptied file (what logrotate calls copytruncate; a line written between the
 * copy and the truncation is lost). Answers whether it rotated.
 */
export function rotateLog(path: string, { maxBytes, keep }: LogRotationOptions = LOG_ROTATION): boolean {
  if (!existsSync(path) || statSync(path).size <= maxBytes) return false;
  for (let n = keep - 1; n >= 1; n--) {
    if (existsSync(`${path}.${n}`)) renameSync(`${path}.${n}`, `${path}.${n + 1}`);
  }
  copyFileSync(path, `${path}.1`);
  truncateSync(path, 0);
  return true;
}

/**
 * Checks `paths` every `everyMs` and rotates those grown past the limit (see rotateLog); its
 * timer never keeps the runner alive. stop() ends the checks.
 */
export function rotateLogs(
  paths: readonly string[],
  everyMs = 30_000,
  options: LogRotationOptions = LOG_ROTATION,
): { stop: () => void } {
  const timer = setInterval(() => {
    for (const path of paths) {
      try {
        rotateLog(path, options);
      } catch {
        /* a log removed meanwhile (a test cleaning up): the next check tries again */
      }
    }
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
