import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The lint configuration refuses focused tests in committed code: a `.only` would silently skip
 * every other test of the run.
 */
describe('ESLint refuses a committed .only', () => {
  const root = resolve(__dirname, '../../../..');
  // Linted as if it were this very file, so the test-file rules of eslint.config.mjs apply.
  const filePath = resolve(__dirname, 'no-only.spec.ts');

  /**
   * Lints every snippet in ONE ESLint process through its Node API, with the repository's
   * configuration but only its `no-restricted-*` rules, and without the type-aware program the
   * other rules need (building it took 154 s of a loaded CI run); the answer is our own JSON,
   * which nothing else printed on stdout can break.
   */
  function rulesOf(snippets: string[]): string[][] {
    const script = `
      import { ESLint } from 'eslint';
      const { snippets, filePath } = JSON.parse(process.argv[1]);
      const eslint = new ESLint({
        cwd: process.cwd(),
        ruleFilter: ({ ruleId }) => ruleId.startsWith('no-restricted-'),
        overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      });
      const rules = [];
      for (const code of snippets) {
        const [result] = await eslint.lintText(code, { filePath });
        rules.push(result.messages.map((message) => message.ruleId ?? 'parse-error'));
      }
      process.stdout.write('\\n' + JSON.stringify(rules));
    `;
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify({ snippets, filePath })],
      { cwd: root, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`eslint failed (${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout.slice(run.stdout.lastIndexOf('\n') + 1)) as string[][];
  }

  it('reports describe.only, it.only, test.only, fit and fdescribe, and accepts plain tests', () => {
    const focused = [
      "describe.only('x', () => undefined);\n",
      "it.only('x', () => undefined);\n",
      "test.only('x', () => undefined);\n",
      "fit('x', () => undefined);\n",
      "fdescribe('x', () => undefined);\n",
    ];
    const plain = "describe('x', () => {\n  it('y', () => expect(1).toBe(1));\n});\n";
    const rules = rulesOf([...focused, plain]);
    focused.forEach((code, index) =>
      expect([code, rules[index].filter((rule) => rule.startsWith('no-restricted'))]).toEqual([
        code,
        [expect.stringMatching(/^no-restricted-(properties|globals)$/)],
      ]),
    );
    expect(rules[focused.length]).toEqual([]);
  }, 120_000);
});
