import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSpec, type SourceFile } from './conventions';

// The workspace's apps and their sources, read from disk for the conventions spec.

/** Every production source file (`*.ts`, no specs) under `apps/<app>/src`, or under `folder`. */
export function readApp(root: string, app: string, folder?: string): SourceFile[] {
  const src = join(root, folder ?? join('apps', app, 'src'));
  const walk = (dir: string, prefix: string): SourceFile[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return walk(join(dir, entry.name), path);
      if (!entry.name.endsWith('.ts') || isSpec(entry.name)) return [];
      const text = readFileSync(join(dir, entry.name), 'utf8');
      return [folder ? { app, root: folder, path, text } : { app, path, text }];
    });
  return walk(src, '');
}

/**
 * The production sources of every library and tool (`libs/<name>/src`, `tools/<name>/src`),
 * one group per folder, for the rules that hold everywhere.
 */
export function readLibsAndTools(root: string): { folder: string; files: SourceFile[] }[] {
  return ['libs', 'tools'].flatMap((top) =>
    readdirSync(join(root, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, top, entry.name, 'src')))
      .map((entry) => `${top}/${entry.name}/src`)
      .sort()
      .map((folder) => ({ folder, files: readApp(root, '', folder) })),
  );
}

/** The apps of the workspace: every folder of `apps/` with a `src/`. */
export function appsOf(root: string): string[] {
  return readdirSync(join(root, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .filter((entry) => readdirSync(join(root, 'apps', entry.name)).includes('src'))
    .map((entry) => entry.name)
    .sort();
}
