import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, isAbsolute, join } from 'node:path';
import { commandLine, isAlive, ServerChild, stopLeftover } from './processes';

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
  private readonly server: ServerChild;
  port = 0;
  onUnexpectedExit?: (message: string) => void;

  constructor(private readonly options: NatsServerOptions) {
    this.server = new ServerChild('nats-server', options.logFile, (message) =>
      this.onUnexpectedExit?.(message),
    );
  }

  get pid(): number | undefined {
    return this.server.pid;
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
    const store = this.options.storeDirectory;
    this.server.spawn(this.options.binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store]);
    if (await this.server.waitReady(port, () => probe(port), 15_000, 50)) return;
    throw new Error(
      this.server.withLog(`nats-server did not accept connections on port ${port} within 15 s`),
    );
  }

  url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** SIGTERM lets nats-server flush JetStream and close client connections. */
  async stop(): Promise<void> {
    await this.server.stop('SIGTERM', 10_000, 'SIGKILL', 2_000);
  }

  forceStop(): void {
    this.server.forceStop('SIGKILL');
  }
}
