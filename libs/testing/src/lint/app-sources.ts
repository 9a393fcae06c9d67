import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSpec, type SourceFile } from './conventions';

// The workspace's apps and their sources, read from disk for the conventions spec.

/** Every production source file (`*.ts`, no specs) of one app. */
export function readApp(root: string, app: string): SourceFile[] {
  const src = join(root, 'apps', app, 'src');
  const walk = (dir: string, prefix: string): SourceFile[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return walk(join(dir, entry.name), path);
      if (!entry.name.endsWith('.ts') || isSpec(entry.name)) return [];
      return [{ app, path, text: readFileSync(join(dir, entry.name), 'utf8') }];
    });
  return walk(src, '');
}

/** The apps of the workspace: every folder of `apps/` with a `src/`. */
export function appsOf(root: string): string[] {
  return readdirSync(join(root, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .filter((entry) => readdirSync(join(root, 'apps', entry.name)).includes('src'))
    .map((entry) => entry.name)
    .sort();
}
