import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports handed out, one empty file each, shared by every process on the machine: a port is free
 * when asked for but taken only when its app binds it, seconds later, and test runs side by side
 * (`npm test`'s e2e shards, each booting a stack, and its integration run) would otherwise be
 * given the same one now and then. A reservation lapses after a while (its taker has bound the
 * port by then, or died).
 */
const RESERVATIONS = join(tmpdir(), 'media-test-ports');
const RESERVED_MS = 5 * 60_000;

/** A port the OS picks among those nothing listens on right now. */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function lapsed(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > RESERVED_MS;
  } catch {
    return false;
  }
}

/** Takes the port's reservation; false when another process holds it. */
function reserve(port: number): boolean {
  mkdirSync(RESERVATIONS, { recursive: true });
  try {
    closeSync(openSync(join(RESERVATIONS, String(port)), 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes lapsed reservations (a lapsed one is never taken again, so removing it races with nothing). */
function prune(): void {
  for (const name of readdirSync(RESERVATIONS)) {
    const file = join(RESERVATIONS, name);
    if (lapsed(file)) rmSync(file, { force: true });
  }
}

let handedOut = 0;

/** A port nothing listens on right now (the OS picks it) and no other caller was given lately. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await unusedPort();
    if (!reserve(port)) continue;
    if (++handedOut % 50 === 1) prune();
    return port;
  }
  throw new Error(`no free port without a reservation in ${RESERVATIONS}`);
}
