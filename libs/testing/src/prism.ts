/**
 * Stoplight Prism's validating proxy in front of a gateway: every request and every answer that
 * passes through is checked against the OpenAPI document, and each disagreement is reported.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './ports';
import { stopChild, waitReady } from './processes';

const ROOT = resolve(__dirname, '../../..');

export interface PrismExchange {
  request: string;
  status?: number;
  violations: string[];
}

/** Prism's log, one request after another (a request's lines follow its `Request received`). */
export function parsePrismLog(log: string): PrismExchange[] {
  const exchanges: PrismExchange[] = [];
  for (const line of log.split('\n')) {
    const received = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(line);
    if (received) {
      exchanges.push({ request: `${received[1].toUpperCase()} ${received[2]}`, violations: [] });
      continue;
    }
    const current = exchanges.at(-1);
    if (!current) continue;
    const status = /has returned (\d{3})/.exec(line);
    if (status) current.status = Number(status[1]);
    const violation = line.indexOf('Violation:');
    if (violation >= 0) current.violations.push(line.slice(violation + 'Violation:'.length).trim());
  }
  return exchanges;
}

export interface PrismProxy {
  /** Where to send requests instead of the gateway. */
  url: string;
  /**
   * Every request Prism forwarded so far, in order, with the status the gateway answered and
   * the violations Prism reported for it (`request.body.x ...`, `response.body.y ...`).
   */
  exchanges(): PrismExchange[];
  stop(): Promise<void>;
}

/** Starts `prism proxy` for `document` in front of `upstream` on a free loopback port. */
export async function startPrism(document: object, upstream: string): Promise<PrismProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'media-prism-'));
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'proxy',
      file,
      upstream,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      // Violations are reported, never turned into answers of Prism's own.
      '--errors',
      'false',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/health/live`, { child, output: () => output, stop: () => stopChild(child) });
  } catch (error) {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    exchanges: () => parsePrismLog(output),
    stop: async () => {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
