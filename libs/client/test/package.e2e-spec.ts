/**
 * `@media/client` as a project outside this repository gets it: `npm pack libs/client` makes a
 * tarball (built with its declarations by `prepack`), a scratch project installs it (openapi-fetch
 * comes as its pinned dependency), a strict TypeScript script using it compiles, and runs against
 * the running stack.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { stack } from '@media/testing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const PACKAGE = join(ROOT, 'libs', 'client');

const SCRIPT = `import { createApiClient, loginClient, type Schema } from '@media/client';

type Me = Schema<'UserResponse'>;

async function main(): Promise<void> {
  const [baseUrl = '', email = '', password = ''] = process.argv.slice(2);
  const { client, tokens } = await loginClient({ baseUrl, email, password });
  const { data, error, response } = await client.GET('/acl/api/v1/users/me');
  if (!data) throw new Error(\`\${response.status} \${JSON.stringify(error)}\`);
  const me: Me = data;
  const anonymous = createApiClient({ baseUrl });
  const refused = await anonymous.GET('/acl/api/v1/users/me');
  process.stdout.write(JSON.stringify({ email: me.email, type: tokens.token_type, anonymous: refused.response.status }));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error));
  process.exit(1);
});
`;

let scratch: string;
/** A workspace of libs/client's files and the repository's node_modules, where it is packed. */
let workspace: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'media-client-scratch-'));
  // `prepack` writes the package's dist/. In a copy, the tree `npm start` compares with its last
  // build keeps its modification times (scripts/build-if-stale.mjs): a dist/ made and removed in
  // libs/client would have an `npm start` running beside this file rebuild under the other runs.
  workspace = await mkdtemp(join(tmpdir(), 'media-client-package-'));
  await cp(PACKAGE, join(workspace, 'libs', 'client'), {
    recursive: true,
    filter: (source) => !['test', 'dist'].includes(relative(PACKAGE, source)),
  });
  await symlink(join(ROOT, 'node_modules'), join(workspace, 'node_modules'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

describe('@media/client as an installable package', () => {
  it('packs, installs into a scratch project, compiles a strict script and runs it against the stack', async () => {
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: join(workspace, 'libs', 'client'),
      maxBuffer: 16 * 1024 * 1024,
    });
    const [tarball] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    expect(tarball.files.map((f) => f.path).sort()).toEqual(
      expect.arrayContaining([
        'dist/index.d.ts',
        'dist/index.js',
        'dist/generated/openapi.d.ts',
        'package.json',
      ]),
    );
    expect(tarball.files.filter((f) => f.path.startsWith('src/'))).toEqual([]);

    await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    // From the npm cache the repository's install filled: openapi-fetch is the package's own dependency.
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', join(scratch, tarball.filename)],
      {
        cwd: scratch,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const installed = JSON.parse(
      await readFile(join(scratch, 'node_modules', 'openapi-fetch', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe('0.17.0');

    await writeFile(join(scratch, 'main.ts'), SCRIPT);
    await writeFile(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          lib: ['ES2022', 'DOM'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], {
      cwd: scratch,
    }).catch((error: { stdout?: string }) => {
      throw new Error(`the script does not compile against the package:\n${error.stdout ?? ''}`);
    });

    const { gatewayUrl, admin } = stack();
    const { stdout } = await run(
      process.execPath,
      [join(scratch, 'out', 'main.js'), gatewayUrl, admin.email, admin.password],
      {
        cwd: scratch,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ email: admin.email, type: 'Bearer', anonymous: 401 });
  }, 180_000);
});
