import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, isAlive } from './processes';

export const LOCK_FILE = 'embedded.lock';

export class DataDirInUseError extends Error {}

function holder(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure one runner at a time uses a data directory: two would start two PostgreSQL servers
 * on one cluster. A lock left by a runner that died is taken over (its pid is gone, or is now
 * some other program).
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { release: () => (holder(file) === process.pid ? rmSync(file, { force: true }) : undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = holder(file);
      if (
        pid !== undefined &&
        pid !== process.pid &&
        isAlive(pid) &&
        (commandLine(pid) ?? 'node').includes('node')
      ) {
        throw new DataDirInUseError(
          `${dataDir} is in use by another runner (pid ${pid}); stop it first or set DATA_DIR`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`could not lock ${dataDir}`);
}
