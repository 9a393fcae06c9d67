/**
 * What every benchmark does with processes: a free port, an app (or anything) started from
 * `dist` as a child process, waited for until it answers, and stopped with SIGTERM (SIGKILL after
 * 10 s). Nothing here needs a build, so the gateway benchmark (which builds only the gateway)
 * uses it too.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The apps of a build: this checkout's `dist`, or another build's (`distDir`, e.g. the previous
 * build's, built in a scratch worktree, to measure beside it), whose processes find their
 * packages in this checkout's node_modules through `env`.
 */
export function build(distDir) {
  if (!distDir) return { entry: (path) => join(root, 'dist', path), env: {} };
  const dir = resolve(distDir);
  return { entry: (path) => join(dir, path), env: { NODE_PATH: join(root, 'node_modules') } };
}

/** A TCP port free on 127.0.0.1 this moment. */
export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Starts `node <entry>` with `env` (and this process's PATH). Its output goes to a log file in
 * the temporary directory named after `name`, or with `{ stderr: 'inherit' }` its stderr to ours
 * (stdout dropped); `nodeArgs` go before the entry (e.g. `--cpu-prof`). Returns the child, the
 * log file (if any) and `stop()`.
 */
export function startProcess(name, entry, env, { stderr = 'file', nodeArgs = [] } = {}) {
  const logFile = stderr === 'file' ? join(tmpdir(), `bench-${name}-${Date.now()}.log`) : undefined;
  const fd = logFile ? openSync(logFile, 'w') : undefined;
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: { ...env, PATH: process.env.PATH ?? '' },
    stdio: fd === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  return { child, logFile, stop: () => stopProcess(child) };
}

/** SIGTERM, then SIGKILL if the child is still there after 10 s; resolves once it exited. */
export async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  child.kill('SIGTERM');
  await once(child, 'exit');
  clearTimeout(kill);
}

/**
 * Polls `url` until it answers 2xx. Throws when `child` (if given) exits first, or after
 * `timeoutMs`; the error names the log file when there is one.
 */
export async function waitReady(url, { child, logFile, timeoutMs = 60_000, intervalMs = 200 } = {}) {
  const where = logFile ? `; log in ${logFile}` : '';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${url}: exited with ${child.exitCode}${where}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs / 1000} s${where}`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}
