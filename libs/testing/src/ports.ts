import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/** The bottom of the range handed out: above the well-known and most servers' usual ports. */
const LOWEST_PORT = 10_000;

/**
 * Where the OS takes the local ports of outgoing connections (Linux's `ip_local_port_range`;
 * 32768 when it cannot be read). A port handed out from that range may become the source port of
 * a connection (to PostgreSQL, NATS, …) before its app binds it, and the app then fails with
 * EADDRINUSE; ports below it are never taken that way.
 */
function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST_PORT + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const ABOVE_HIGHEST = ephemeralPortsFrom();

/**
 * Whether nothing listens on `port` on any address right now (it can be bound on all of them,
 * as the apps bind, then is let go).
 */
function unused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A port below the ephemeral range, picked at random, that nothing listens on right now. */
async function unusedPort(): Promise<number> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (ABOVE_HIGHEST - LOWEST_PORT));
    if (await unused(port)) return port;
  }
  throw new Error(`no port free to listen on between ${LOWEST_PORT} and ${ABOVE_HIGHEST}`);
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

/** A port below the ephemeral range that nothing listens on right now and no other caller was given lately. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await unusedPort();
    if (!reserve(port)) continue;
    if (++handedOut % 50 === 1) prune();
    return port;
  }
  throw new Error(`no free port without a reservation in ${RESERVATIONS}`);
}
