/**
 * The embedded default as root from a directory the `postgres` user cannot enter: a
 * checkout (binaries) and a DATA_DIR under a fresh `mktemp -d` (0700). PostgreSQL's binaries and
 * cluster run from a base the `postgres` user can reach, named in DATA_DIR; nothing of the
 * user's directories is opened up. As another user there is nothing to move, and nothing moves.
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { findFreePort } from '../src/ports';
import { EmbeddedPostgresServer, LOCATION_FILE, postgresBinaries } from '../src/postgres';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('embedded PostgreSQL from a directory the postgres user cannot enter', () => {
  const work = mkdtempSync(join(tmpdir(), 'embedded-private-'));
  // Stands for /var/lib/media-backoffice: a place the postgres user can pass through.
  const base = mkdtempSync(join(tmpdir(), 'embedded-base-'));
  chmodSync(base, 0o711);
  let server: EmbeddedPostgresServer | undefined;

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
    rmSync(base, { recursive: true, force: true });
  }, 60_000);

  it('runs a copy of the binaries and the cluster from a base it can reach, and serves queries', async () => {
    // mktemp -d: 0700, owned by the runner; a "checkout" with the binaries inside it.
    expect(statSync(work).mode & 0o777).toBe(0o700);
    const packaged = postgresBinaries();
    const checkout = join(work, 'checkout', 'native');
    cpSync(packaged.native, checkout, { recursive: true, verbatimSymlinks: true });
    const bin = join(checkout, 'bin');
    const dataDir = join(work, 'data');
    const lines: string[] = [];
    server = new EmbeddedPostgresServer({
      directory: join(dataDir, 'postgres'),
      password: 'relocation-test-password',
      logFile: join(work, 'postgres.log'),
      say: (line) => lines.push(line),
    });
    const relocated = join(base, 'cluster-base');
    server.prepareLocation(relocated, {
      bin,
      native: checkout,
      postgres: join(bin, 'postgres'),
      initdb: join(bin, 'initdb'),
    });
    if (isRoot) {
      expect(server.relocatedTo).toBe(relocated);
      expect(server.directory).toBe(join(relocated, 'data'));
      expect(readFileSync(join(dataDir, LOCATION_FILE), 'utf8').trim()).toBe(join(relocated, 'data'));
      expect(lines.join('\n')).toMatch(/cannot enter .*: running its binaries and cluster from/);
      // The user's directory is left as it was.
      expect(statSync(work).mode & 0o777).toBe(0o700);
    } else {
      expect(server.relocatedTo).toBeUndefined();
      expect(server.directory).toBe(join(dataDir, 'postgres'));
    }
    await server.initialise();
    expect(server.isInitialised()).toBe(true);
    await server.start(await findFreePort());
    const client = new Client({ connectionString: server.url('postgres') });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT 41 + 1 AS n');
      expect(rows[0].n).toBe(42);
    } finally {
      await client.end();
    }
    await server.stop();
    expect(existsSync(join(server.directory, 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
