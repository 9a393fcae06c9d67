import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the runner remembers in `DATA_DIR/embedded.json` between starts: the ports its own
 * servers got the first time (so connection strings stay stable) and the pid of the
 * nats-server it started (so one left behind by a killed runner can be stopped). While the
 * system runs, it also names where to reach it: `gateway_url` and `nats_url` (`npm run demo`
 * and other tools follow them; a clean stop removes them).
 */
export interface EmbeddedState {
  postgres?: { port: number };
  nats?: { port: number; pid?: number };
  gateway_url?: string;
  /** `nats://127.0.0.1:<port>`, or `inproc` when the apps share an in-process bus no client can reach. */
  nats_url?: string;
}

export const STATE_FILE = 'embedded.json';

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536;
}

/** Reads the state, ignoring what does not parse: it only holds preferences, never data. */
export function readState(dataDir: string): EmbeddedState {
  const file = join(dataDir, STATE_FILE);
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  const state: EmbeddedState = {};
  if (typeof raw !== 'object' || raw === null) return state;
  const { postgres, nats, gateway_url, nats_url } = raw as {
    postgres?: { port?: unknown };
    nats?: { port?: unknown; pid?: unknown };
    gateway_url?: unknown;
    nats_url?: unknown;
  };
  if (typeof gateway_url === 'string') state.gateway_url = gateway_url;
  if (typeof nats_url === 'string') state.nats_url = nats_url;
  if (postgres && isPort(postgres.port)) state.postgres = { port: postgres.port };
  if (nats && isPort(nats.port)) {
    state.nats = { port: nats.port };
    if (typeof nats.pid === 'number' && Number.isInteger(nats.pid) && nats.pid > 0) state.nats.pid = nats.pid;
  }
  return state;
}

/** Writes through a temporary file, so a crash mid-write never leaves half a JSON document. */
export function writeState(dataDir: string, state: EmbeddedState): void {
  const file = join(dataDir, STATE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temporary, file);
}

export interface PortChoice {
  port: number;
  /** False when the saved port was missing or taken and a new one was found. */
  reused: boolean;
}

/**
 * Keeps the port saved at the first start when it is still free, else takes a new free one
 * (something else may have taken it while the system was stopped).
 */
export async function choosePort(
  saved: number | undefined,
  isFree: (port: number) => Promise<boolean>,
  findFree: () => Promise<number>,
): Promise<PortChoice> {
  if (saved !== undefined && (await isFree(saved))) return { port: saved, reused: true };
  return { port: await findFree(), reused: false };
}
