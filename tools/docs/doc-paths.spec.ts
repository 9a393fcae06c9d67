import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Every repository path the docs name exists: relative links (`[text](../nats.md)`) and paths in
 * code spans that start at a top-level folder of the repository (`bench/lib/edge.mjs`,
 * `apps/acl/src/`). A renamed or deleted file fails here instead of leaving the docs pointing at
 * nothing. Patterns (with a `*`), placeholders (`apps/<app>`) and elisions (`...`) are not paths.
 * A file named without its folder (`` `quiet-hours.ts` ``) must be the name of some file of the
 * repository, so a page cannot keep naming a file that was renamed or deleted.
 */
const ROOT = join(__dirname, '..', '..');
const TOP = ['.ci', 'apps', 'bench', 'deploy', 'docs', 'libs', 'scripts', 'tools'];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const docs = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** The names of the repository's files (build output and dependencies left out). */
function fileNames(dir: string, names = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', '.nx', 'tmp'].includes(entry.name)) continue;
    if (entry.isDirectory()) fileNames(join(dir, entry.name), names);
    else names.add(entry.name);
  }
  return names;
}
const FILE_NAMES = fileNames(ROOT);
/** A file name alone in a code span: `digest.service.ts`, `seed.ts`, `run.mjs`. */
const BARE_FILE = /^[\w-]+(\.[\w-]+)*\.(ts|mjs|cjs|js|sh|sql)$/;

/** File names (with no folder) a document names that no file of the repository has. */
function unknownFileNames(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map(([, span]) => span.replace(/[:,]$/, ''))
    .filter((name) => BARE_FILE.test(name) && !FILE_NAMES.has(name));
}

/** The repository paths a document names, each with where it would be. */
function named(file: string): { path: string; at: string }[] {
  const text = readFileSync(file, 'utf8');
  const found: { path: string; at: string }[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const path = target.split('#', 1)[0];
    found.push({ path, at: join(dirname(file), path) });
  }
  for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
    const path = span.replace(/[:,.]$/, '');
    if (!TOP.some((top) => path.startsWith(`${top}/`)) || /[*<>{}$]|\.\.\./.test(path)) continue;
    found.push({ path, at: join(ROOT, path.split(/[#:]/, 1)[0]) });
  }
  return found;
}

describe('repository paths named in the docs', () => {
  it('reads the README and every page of docs/', () => {
    expect(docs.length).toBeGreaterThan(20);
  });

  it.each(docs.map((file) => [relative(ROOT, file), file]))(
    '%s names only paths that exist',
    (_name, file) => {
      const missing = named(file)
        .filter(({ at }) => !existsSync(at))
        .map(({ path }) => path);
      expect(missing).toEqual([]);
    },
  );

  it.each(docs.map((file) => [relative(ROOT, file), file]))(
    '%s names files (without their folder) that exist',
    (_name, file) => {
      expect(unknownFileNames(file)).toEqual([]);
    },
  );

  it('tells a file name of the repository from one that is not', () => {
    expect(FILE_NAMES.has('doc-paths.spec.ts')).toBe(true);
    expect(BARE_FILE.test('quiet-hours.ts')).toBe(true);
    expect(BARE_FILE.test('apps/acl/src/main.ts')).toBe(false);
    expect(FILE_NAMES.has('no-such-file.ts')).toBe(false);
  });

  it.each(docs.map((file) => [relative(ROOT, file), file]))(
    '%s cites no tracker issue (the tracker is not in the repository)',
    (_name, file) => {
      expect(readFileSync(file, 'utf8').match(/\bissues?[\s#-]*\d+\b/gi) ?? []).toEqual([]);
    },
  );
});
