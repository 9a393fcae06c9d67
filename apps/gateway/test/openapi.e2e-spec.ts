/**
 * The merged `/openapi.json` as a client developer uses it: it lints clean with the
 * repository's redocly.yaml, openapi-typescript generates a client from it, and that client
 * type-checks (`tsc --strict`) against openapi-client/usage.ts, which fails to compile when an
 * operation has no typed success body. Every operation has a summary, a 2xx, its security and
 * the errors it can answer.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { completeOpenApi, stack } from '@media/testing';
import { GATEWAY_PATHS } from '../src/docs/gateway-paths';
import { isPublicPath } from '../src/proxy/routes';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
/** Probes and the key set: nothing a client sends can be wrong, so only the gateway's 429 applies. */
const NO_CLIENT_ERROR = /\/health\/(live|ready)$|^\/acl\/\.well-known\/(jwks|audit-keys)\.json$/;
/** The gateway's own routes: public, answered by the gateway itself (no 429, no 401). */
const OWN = (path: string): boolean => path in GATEWAY_PATHS;

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
interface Document {
  security?: unknown[];
  servers?: { url: string }[];
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
}

let dir: string;
/** Generating the client and type-checking it: CPU-bound, over 60 s in a CI run at load 30. */
const TOOLS_MS = 180_000;

let document: Document;
let operations: { key: string; method: string; path: string; op: Operation }[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
  document = await completeOpenApi<Document>(stack().gatewayUrl);
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, op })),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the merged OpenAPI document', () => {
  it('holds every app, with servers, a license and bearer security by default', () => {
    expect(operations.length).toBeGreaterThan(90);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info.license?.name).toBeTruthy();
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it('gives every operation a summary and a 2xx answer', () => {
    expect(operations.filter(({ op }) => !op.summary?.trim()).map(({ key }) => key)).toEqual([]);
    expect(
      operations
        .filter(({ op }) => !Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)))
        .map((o) => o.key),
    ).toEqual([]);
  });

  it('declares security: [] exactly on the routes the gateway lets through without a token', () => {
    const wrong = operations
      .filter(({ method, path, op }) => {
        const open = OWN(path) || isPublicPath(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x'));
        return open
          ? JSON.stringify(op.security) !== '[]'
          : JSON.stringify(op.security) !== '[{"bearer":[]}]';
      })
      .map(({ key, op }) => `${key}: ${JSON.stringify(op.security)}`);
    expect(wrong).toEqual([]);
    expect(operations.filter(({ op }) => op.security?.length === 0).length).toBeGreaterThanOrEqual(20);
  });

  it('declares a 401 on every protected route and a client error on every route taking input', () => {
    const protectedWithout401 = operations
      .filter(({ op }) => op.security?.length !== 0 && !('401' in op.responses))
      .map(({ key }) => key);
    expect(protectedWithout401).toEqual([]);
    const withoutClientError = operations
      .filter(({ path }) => !NO_CLIENT_ERROR.test(path) && !OWN(path))
      .filter(({ op }) => !Object.keys(op.responses).some((s) => /^4\d\d$/.test(s) && s !== '429'))
      .map(({ key }) => key);
    expect(withoutClientError).toEqual([]);
    // The gateway may rate-limit any request it forwards; its own routes are not limited.
    expect(
      operations.filter(({ path, op }) => !OWN(path) && !('429' in op.responses)).map(({ key }) => key),
    ).toEqual([]);
  });

  it(
    'lints with no error and no warning (redocly.yaml)',
    async () => {
      const { stdout } = await run(
        join(BIN, 'redocly'),
        ['lint', join(dir, 'openapi.json'), '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`redocly lint failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      });
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    TOOLS_MS,
  );

  it(
    'generates a client that type-checks, with a typed success body for every operation',
    async () => {
      await run(join(BIN, 'openapi-typescript'), [join(dir, 'openapi.json'), '-o', join(dir, 'client.ts')], {
        cwd: ROOT,
      });
      const usage = join(__dirname, 'openapi-client');
      await copyFile(join(usage, 'usage.ts'), join(dir, 'usage.ts'));
      await copyFile(join(usage, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      await run(join(BIN, 'tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: ROOT }).catch(
        (error: { stdout?: string }) => {
          throw new Error(`the generated client does not type-check:\n${error.stdout ?? ''}`);
        },
      );
    },
    TOOLS_MS,
  );
});
