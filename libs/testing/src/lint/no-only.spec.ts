import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The lint configuration refuses focused tests in committed code (issue 6). */
describe('ESLint refuses a committed .only', () => {
  const root = resolve(__dirname, '../../../..');
  // Linted as if it were this very file, so the test-file rules of eslint.config.mjs apply.
  const filePath = resolve(__dirname, 'no-only.spec.ts');

  function rules(code: string): string[] {
    const run = spawnSync(
      process.execPath,
      [
        resolve(root, 'node_modules/eslint/bin/eslint.js'),
        '--format',
        'json',
        '--stdin',
        '--stdin-filename',
        filePath,
      ],
      { cwd: root, input: code, encoding: 'utf8' },
    );
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null }[] }[];
    return result.messages.map((message) => message.ruleId ?? 'parse-error');
  }

  it('reports describe.only, it.only, test.only, fit and fdescribe, and accepts plain tests', () => {
    const focused = [
      "describe.only('x', () => undefined);\n",
      "it.only('x', () => undefined);\n",
      "test.only('x', () => undefined);\n",
      "fit('x', () => undefined);\n",
      "fdescribe('x', () => undefined);\n",
    ];
    for (const code of focused)
      expect([code, rules(code).filter((rule) => rule.startsWith('no-restricted'))]).toEqual([
        code,
        [expect.stringMatching(/^no-restricted-(properties|globals)$/)],
      ]);
    expect(rules("describe('x', () => {\n  it('y', () => expect(1).toBe(1));\n});\n")).toEqual([]);
  }, 120_000);
});
