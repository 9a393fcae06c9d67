import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
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
    const from = Math.max(this.start, size - 8192);
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
