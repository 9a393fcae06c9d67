/**
 * Helpers for documents's e2e tests: the stack booted by the global setup (reached through the
 * gateway or directly), plus documents processes of a test's own, started from dist with the
 * variables the test needs (a small UPLOAD_LIMIT, its own storage and temp directories, the S3
 * driver), so what they leave on disk can be checked.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  e2eStack,
  freePort,
  mintToken,
  queryDatabase,
  spawnDist,
  waitReady,
  type ApiRequest,
  type ApiResponse,
} from '@media/testing';

export { eventually } from '@media/testing';

/** The stack booted by the global setup. */
export const system = e2eStack;

/** A request to a documents path (`/api/v1/...`) on a base URL (the gateway by default). */
export function documents<T = any>(
  path: string,
  request: ApiRequest = {},
  base = system().gatewayUrl,
): Promise<ApiResponse<T>> {
  return call<T>(base, `/documents${path}`, request);
}

/** A caller with a fresh id and the given permissions (it need not exist in acl). */
export interface Caller {
  id: string;
  token: string;
}

export function caller(permissions: string[] = ['documents:write']): Caller {
  const id = randomUUID();
  return { id, token: mintToken(system().keys, { sub: id, permissions }) };
}

export interface Part {
  name: string;
  filename?: string;
  /** Sent as `filename*=UTF-8''...` (RFC 5987), already percent-encoded. */
  filenameStar?: string;
  contentType?: string;
  content: Buffer | string;
}

/** A multipart/form-data body built by hand, so names and bytes are exactly what a test wants. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----documents-e2e-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    if (part.filenameStar !== undefined) head += `; filename*=UTF-8''${part.filenameStar}`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads one file as the `file` part. */
export function upload(
  who: Caller,
  content: Buffer | string,
  options: { filename?: string; contentType?: string; base?: string } = {},
): Promise<ApiResponse<any>> {
  const { body, contentType } = multipart([
    {
      name: 'file',
      filename: options.filename ?? 'file.bin',
      contentType: options.contentType ?? 'application/octet-stream',
      content,
    },
  ]);
  return documents(
    '/api/v1/documents',
    { token: who.token, raw: body, headers: { 'content-type': contentType } },
    options.base,
  );
}

/** Uploads and insists on 201. */
export async function uploaded(
  who: Caller,
  content: Buffer | string,
  options: { filename?: string; contentType?: string; base?: string } = {},
): Promise<Record<string, any>> {
  const res = await upload(who, content, options);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A download, body as bytes. */
export async function download(
  base: string,
  id: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${base}/documents/api/v1/documents/${id}/content`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** One query on a documents database. */
export function db<R extends Record<string, unknown> = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return queryDatabase<R>(url, sql, params);
}

/** Every file under a directory, recursively (relative paths). */
export function filesUnder(dir: string): string[] {
  let found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found = found.concat(filesUnder(path).map((f) => join(name, f)));
    else found.push(name);
  }
  return found;
}

/** A documents process of the test's own, on its own database, storage and temp directories. */
export interface OwnDocuments {
  url: string;
  databaseUrl: string;
  storageDir: string;
  tempDir: string;
  child: ChildProcess;
  /** Resident set size in bytes, from /proc. */
  rss(): number;
  stop(): Promise<void>;
}

/**
 * A bound for a `beforeAll` that boots one documents process: creating its database and booting
 * took over 30 s at a load of 35.
 */
export const BOOT_MS = 90_000;

export async function startDocuments(env: Record<string, string> = {}): Promise<OwnDocuments> {
  const name = `e2e_${Date.now()}_documents_${randomBytes(3).toString('hex')}`;
  await createDatabases([name]);
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), 'documents-e2e-'));
  const storageDir = join(root, 'store');
  const tempDir = mkdtempSync(join(root, 'tmp-'));
  const url = `http://127.0.0.1:${port}`;
  const documents = spawnDist('documents', {
    ...system().env,
    TMPDIR: tempDir,
    PORT: String(port),
    DOCUMENTS_PORT: String(port),
    DATABASE_URL: databaseUrl(name),
    STORAGE_DIR: storageDir,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const child = documents.child;
  await waitReady(`${url}/documents/health/ready`, documents, 60_000);
  return {
    url,
    databaseUrl: databaseUrl(name),
    storageDir,
    tempDir,
    child,
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async stop() {
      await documents.stop();
      await dropDatabases([name]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
