import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { ChildLog } from './logfile';

/**
 * The allocator `npm start` preloads into the runner (scripts/start.sh: jemalloc, by LD_PRELOAD with
 * its MALLOC_CONF) is the runner's own: taken out of the environment the runner's children inherit,
 * so PostgreSQL and nats-server run on their usual malloc (with jemalloc's settings for a Node
 * process, the embedded PostgreSQL started slower and served less; docs/benchmarks.md, "All nine
 * in one on jemalloc"). Any other LD_PRELOAD is left as it is.
 */
export function keepAllocatorToRunner(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.LD_PRELOAD?.includes('libjemalloc')) return;
  delete env.LD_PRELOAD;
  delete env.MALLOC_CONF;
}

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

/**
 * The lifecycle of a server child (nats-server, PostgreSQL): spawned detached, in its own
 * process group, so a terminal's Ctrl-C reaches only the runner, which stops the servers last;
 * writing straight to its log file; an exit while not stopping is reported to
 * `onUnexpectedExit`. The owner keeps what is its own: arguments, probe, signals, leftovers.
 */
export class ServerChild {
  readonly log: ChildLog;
  private child?: ChildProcess;
  private exited?: Promise<string>;
  private exitReason?: string;
  private stopping = false;

  /** `name` is how messages call the server: `nats-server exited (SIGKILL)`. */
  constructor(
    private readonly name: string,
    logFile: string,
    private readonly onUnexpectedExit: (message: string) => void,
  ) {
    this.log = new ChildLog(logFile);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** `message`, then the log's path and its last lines. */
  withLog(message: string): string {
    return `${message}\n  log: ${this.log.path}\n${this.log.tail()}`;
  }

  spawn(binary: string, args: string[], options: { cwd?: string; uid?: number; gid?: number } = {}): void {
    const fd = this.log.open();
    const child = spawn(binary, args, { ...options, detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    this.child = child;
    this.exitReason = undefined;
    const exited = (this.exited = new Promise<string>((done) => {
      child.once('error', (error) => done(`could not start ${binary}: ${error.message}`));
      child.once('exit', (code, sig) => done(`${this.name} exited (${sig ?? `code ${code}`})`));
    }));
    void exited.then((reason) => {
      this.exitReason = reason;
      this.child = undefined;
      if (!this.stopping) this.onUnexpectedExit(this.withLog(reason));
    });
  }

  /**
   * Polls `probe` every `intervalMs` until it answers true (true) or `timeoutMs` passes (false);
   * throws at once, with the exit reason and the log, when the server exits meanwhile.
   */
  async waitReady(
    port: number,
    probe: () => Promise<boolean>,
    timeoutMs: number,
    intervalMs: number,
  ): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exitReason) throw new Error(this.withLog(`${this.exitReason} while starting on port ${port}`));
      if (await probe()) return true;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
    return false;
  }

  /** `polite`, then `hard` if the server is still running after `politeMs`. */
  async stop(polite: NodeJS.Signals, politeMs: number, hard: NodeJS.Signals, hardMs: number): Promise<void> {
    this.stopping = true;
    const pid = this.child?.pid;
    const exited = this.exited;
    if (pid === undefined || !exited) return;
    signal(pid, polite);
    if (await within(exited, politeMs)) return;
    signal(pid, hard);
    await within(exited, hardMs);
  }

  forceStop(sig: NodeJS.Signals): void {
    this.stopping = true;
    if (this.child?.pid !== undefined) signal(this.child.pid, sig);
  }
}
