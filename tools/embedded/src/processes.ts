import { readFileSync } from 'node:fs';

/** Whether a process with this pid exists (EPERM means it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, where /proc exists (Linux); undefined elsewhere or when gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

/** Waits until `pid` is gone, polling; true when it went within `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(pid);
}

/** Sends a signal, ignoring a process that is already gone. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    /* already gone */
  }
}

/**
 * Stops a server process left running by an earlier runner that was killed (SIGKILL, OOM):
 * its children outlive it. `gentle` first, `hard` after `timeoutMs`.
 */
export async function stopLeftover(
  pid: number,
  gentle: NodeJS.Signals,
  hard: NodeJS.Signals,
  timeoutMs: number,
): Promise<void> {
  signal(pid, gentle);
  if (await waitForExit(pid, timeoutMs)) return;
  signal(pid, hard);
  await waitForExit(pid, 5_000);
}

/** Whether `promise` settles within `ms`. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((done) => (timer = setTimeout(() => done(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
