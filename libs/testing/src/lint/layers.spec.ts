import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The libraries' direction, as `npm run lint` enforces it (eslint.config.mjs, Nx tags): each
 * import below is linted with the repository's own configuration as if it were written at that
 * path. A wrong-way import must fail with `@nx/enforce-module-boundaries`; the right-way ones
 * beside them must not, so a constraint that stopped matching anything would not pass silently.
 */
const root = resolve(__dirname, '../../../..');

const WRONG_WAY: [path: string, code: string][] = [
  ['libs/core/src/layer-probe.ts', "import { InjectConfig } from '@media/kernel';"],
  ['libs/core/src/layer-probe.ts', "import { InjectConfig } from '../../kernel/src/config/inject-config';"],
  ['libs/kernel/src/layer-probe.ts', "import { Paginator } from '@media/http';"],
  ['libs/kernel/src/layer-probe.ts', "import { RpcClient } from '@media/messaging';"],
  ['libs/http/src/layer-probe.ts', "import { RpcClient } from '@media/messaging';"],
  ['libs/messaging/src/layer-probe.ts', "import { Paginator } from '@media/http';"],
  ['libs/messaging/src/layer-probe.ts', "import { AclClient } from '@media/app-clients';"],
  ['libs/app-clients/src/layer-probe.ts', "import { Feature } from '@media/platform';"],
  ['libs/messaging/src/layer-probe.ts', "import { defineApp } from '@media/platform';"],
  ['libs/contracts/src/layer-probe.ts', "import { DomainError } from '@media/core';"],
  ['apps/gateway/src/layer-probe.ts', "import { InjectConfig } from '@media/kernel';"],
  ['apps/gateway/src/layer-probe.ts', "import { defineApp } from '@media/platform';"],
];

const RIGHT_WAY: [path: string, code: string][] = [
  ['libs/kernel/src/layer-probe.ts', "import { DomainError } from '@media/core';"],
  ['libs/http/src/layer-probe.ts', "import { InjectConfig } from '@media/kernel';"],
  ['libs/app-clients/src/layer-probe.ts', "import { RpcClient } from '@media/messaging';"],
  ['libs/platform/src/layer-probe.ts', "import { Paginator } from '@media/http';"],
  ['apps/gateway/src/layer-probe.ts', "import { DomainError } from '@media/core';"],
  ['apps/acl/src/layer-probe.ts', "import { defineApp } from '@media/platform';"],
];

/**
 * Lints every case in one child process (ESLint's flat config is an ES module, which Jest's
 * CommonJS run does not load). Type-aware rules are switched off: the files do not exist, and
 * the boundary rule reads imports and the Nx project graph only.
 */
function boundaryErrors(cases: [string, string][]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    import tseslint from 'typescript-eslint';
    import { createProjectGraphAsync } from 'nx/src/devkit-exports.js';
    const config = (await import(${JSON.stringify(resolve(root, 'eslint.config.mjs'))})).default;
    await createProjectGraphAsync({ exitOnError: true });
    const eslint = new ESLint({
      cwd: ${JSON.stringify(root)},
      overrideConfigFile: true,
      overrideConfig: [...config, tseslint.configs.disableTypeChecked],
    });
    const cases = JSON.parse(process.env.LAYER_CASES);
    const out = [];
    for (const [filePath, code] of cases) {
      const [result] = await eslint.lintText(code + '\\n', { filePath });
      out.push(result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, LAYER_CASES: JSON.stringify(cases), NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as string[][];
}

describe('library layers (lint)', () => {
  let wrong: string[][];
  let right: string[][];
  beforeAll(() => {
    const all = boundaryErrors([...WRONG_WAY, ...RIGHT_WAY]);
    wrong = all.slice(0, WRONG_WAY.length);
    right = all.slice(WRONG_WAY.length);
  }, 120_000);

  it.each(WRONG_WAY.map(([path, code], i) => [path, code, i] as const))(
    'refuses in %s: %s',
    (_path, _code, i) => {
      expect(wrong[i]).toEqual([expect.stringMatching(/tagged with|relative or absolute path/)]);
    },
  );

  it.each(RIGHT_WAY.map(([path, code], i) => [path, code, i] as const))(
    'allows in %s: %s',
    (_path, _code, i) => {
      expect(right[i]).toEqual([]);
    },
  );
});
