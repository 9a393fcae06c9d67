import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, isAbsolute, join } from 'node:path';
import { ChildLog } from './logfile';
import { commandLine, isAlive, signal, stopLeftover, within } from './processes';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the directories of a PATH value, as a shell would find it. */
export function findOnPath(
  name: string,
  path: string,
  isExecutable: (file: string) => boolean = isExecutableFile,
): string | undefined {
  for (const directory of path.split(delimiter)) {
    // An empty or relative entry would depend on the working directory: a shell quirk, skipped.
    if (!directory || !isAbsolute(directory)) continue;
    const candidate = join(directory, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** `nats-server: v2.9.10` -> `2.9.10`; undefined when the binary does not answer. */
export function natsServerVersion(binary: string): string | undefined {
  try {
    const output = execFileSync(binary, ['--version'], {
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return /v?(\d+\.\d+\.\d+)/.exec(output)?.[1];
  } catch {
    return undefined;
  }
}

/** Resolves once a NATS server on `port` greets a client with its INFO line. */
function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('data', (chunk) => finish(chunk.toString('utf8').startsWith('INFO ')));
  });
}

export interface NatsServerOptions {
  binary: string;
  /** JetStream store (`DATA_DIR/nats`). */
  storeDirectory: string;
  logFile: string;
  say: (line: string) => void;
}

/** A nats-server child with JetStream, on loopback, in its own process group (see postgres.ts). */
export class NatsServerProcess {
  private child?: ChildProcess;
  private exited?: Promise<string>;
  private stopping = false;
  private readonly log: ChildLog;
  port = 0;
  onUnexpectedExit?: (message: string) => void;

  constructor(private readonly options: NatsServerOptions) {
    this.log = new ChildLog(options.logFile);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops a nats-server an earlier, killed runner left serving this store directory. */
  async stopLeftover(pid: number | undefined): Promise<void> {
    if (pid === undefined || !isAlive(pid)) return;
    const command = commandLine(pid);
    if (!command || !command.includes('nats-server') || !command.includes(this.options.storeDirectory))
      return;
    this.options.say(
      `stopping nats-server (pid ${pid}) left running by an earlier run on this data directory`,
    );
    await stopLeftover(pid, 'SIGTERM', 'SIGKILL', 10_000);
  }

  async start(port: number): Promise<void> {
    mkdirSync(this.options.storeDirectory, { recursive: true });
    this.port = port;
    const fd = this.log.open();
    const child = spawn(
      this.options.binary,
      ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', this.options.storeDirectory],
      {
        detached: true,
        stdio: ['ignore', fd, fd],
      },
    );
    closeSync(fd);
    this.child = child;
    const exited = (this.exited = new Promise<string>((done) => {
      child.once('error', (error) => done(`could not start ${this.options.binary}: ${error.message}`));
      child.once('exit', (code, sig) => done(`nats-server exited (${sig ?? `code ${code}`})`));
    }));
    let exitReason: string | undefined;
    void exited.then((reason) => {
      exitReason = reason;
      this.child = undefined;
      if (!this.stopping && this.onUnexpectedExit)
        this.onUnexpectedExit(`${reason}\n  log: ${this.log.path}\n${this.log.tail()}`);
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (exitReason)
        throw new Error(
          `${exitReason} while starting on port ${port}\n  log: ${this.log.path}\n${this.log.tail()}`,
        );
      if (await probe(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(
      `nats-server did not accept connections on port ${port} within 15 s\n  log: ${this.log.path}\n${this.log.tail()}`,
    );
  }

  url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** SIGTERM lets nats-server flush JetStream and close client connections. */
  async stop(): Promise<void> {
    this.stopping = true;
    const pid = this.child?.pid;
    const exited = this.exited;
    if (pid === undefined || !exited) return;
    signal(pid, 'SIGTERM');
    if (await within(exited, 10_000)) return;
    signal(pid, 'SIGKILL');
    await within(exited, 2_000);
  }

  forceStop(): void {
    this.stopping = true;
    if (this.child?.pid !== undefined) signal(this.child.pid, 'SIGKILL');
  }
}
