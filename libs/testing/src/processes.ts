import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { testEnv } from './env';
import { eventually } from './poll';

const ROOT = resolve(__dirname, '../../..');

/** An app process started from the build output, with what it printed (for error messages). */
export interface DistProcess {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** `dist/apps/<app>/src/main.js`. */
export function distEntry(app: string): string {
  return join(ROOT, 'dist', 'apps', app, 'src', 'main.js');
}

/** Starts an app from the build output with `env` (and the harness's PATH); keeps its output. */
export function spawnDist(app: string, env: Record<string, string>): DistProcess {
  const child = spawn(process.execPath, [distEntry(app)], {
    env: { ...env, PATH: testEnv.path },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text, stop: () => stopChild(child) };
}

/**
 * Polls `url` until it answers 2xx; throws when the process exits first or after `timeoutMs`
 * (with what it printed, when it is a DistProcess).
 */
export async function waitReady(
  url: string,
  app: ChildProcess | DistProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const child = 'child' in app ? app.child : app;
  const output = () => ('output' in app ? `\n${app.output()}` : '');
  const state = await eventually(
    async () => {
      if (child.exitCode !== null) return 'exited';
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
        await response.arrayBuffer();
        return response.ok ? 'ready' : 'starting';
      } catch {
        return 'starting'; // not listening yet
      }
    },
    (seen) => seen !== 'starting',
    { timeoutMs, intervalMs: 150 },
  );
  if (state === 'exited') throw new Error(`${url}: process exited with ${child.exitCode}${output()}`);
  if (state !== 'ready') throw new Error(`${url} was not ready within ${timeoutMs} ms${output()}`);
}

/** SIGTERM, and SIGKILL when the graceful shutdown takes longer than 10 s on a busy machine. */
export function stopChild(child: ChildProcess | undefined): Promise<void> {
  return new Promise((done) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return done();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}
