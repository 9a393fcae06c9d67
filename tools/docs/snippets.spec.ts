/**
 * Every TypeScript snippet of the documentation compiles (`tsc --strict`, the repository's
 * settings and `@media/*` paths), so a renamed schema, path or function fails here rather than in
 * a reader's editor. A snippet that uses names it does not define gets them from an HTML comment
 * just before it, invisible on the page: `<!-- ts-prelude: declare const userId: string; -->`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const OUT = join(ROOT, 'dist', `.doc-snippets-${process.pid}`);

interface Snippet {
  where: string;
  source: string;
}

async function markdownFiles(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'), { recursive: true }))
    .filter((file) => file.endsWith('.md'))
    .map((file) => join(ROOT, 'docs', file));
  return [join(ROOT, 'README.md'), ...docs];
}

/** The ```ts blocks of a page, each with the prelude of the comment right before it. */
export function snippetsOf(markdown: string, file: string): Snippet[] {
  return [
    ...markdown.matchAll(/(?:<!-- ts-prelude: (.*?) -->\n\n)?^```(?:ts|typescript)\n([\s\S]*?)^```$/gm),
  ].map((match) => ({
    where: `${file}:${markdown.slice(0, match.index).split('\n').length}`,
    source: `${match[1] ?? ''}\n${match[2]}\nexport {};\n`,
  }));
}

afterAll(() => rm(OUT, { recursive: true, force: true }));

describe('TypeScript snippets in the documentation', () => {
  it('finds the prelude of a snippet in the comment before it', () => {
    const page = '<!-- ts-prelude: declare const x: number; -->\n\n```ts\nconst y = x + 1;\n```\n';
    expect(snippetsOf(page, 'p.md')).toEqual([
      { where: 'p.md:1', source: 'declare const x: number;\nconst y = x + 1;\n\nexport {};\n' },
    ]);
  });

  it('compile, every one of them, with the strict settings of the repository', async () => {
    const snippets: Snippet[] = [];
    for (const file of await markdownFiles()) {
      snippets.push(...snippetsOf(await readFile(file, 'utf8'), relative(ROOT, file)));
    }
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    await mkdir(OUT, { recursive: true });
    const files = await Promise.all(
      snippets.map(async (snippet, i) => {
        const name = `snippet-${i}.mts`;
        await writeFile(join(OUT, name), snippet.source);
        return { name, where: snippet.where };
      }),
    );
    await writeFile(
      join(OUT, 'tsconfig.json'),
      JSON.stringify({
        extends: relative(OUT, join(ROOT, 'tsconfig.base.json')),
        compilerOptions: { noEmit: true, sourceMap: false },
        files: files.map((f) => f.name),
      }),
    );
    const errors = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', OUT, '--pretty', 'false'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    ).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? 'tsc failed',
    );
    // Each error names the page and line of its snippet.
    const named = files.reduce(
      (text, f) => text.replaceAll(join(relative(ROOT, OUT), f.name), f.where),
      errors,
    );
    expect(named.trim()).toBe('');
  }, 120_000);
});
