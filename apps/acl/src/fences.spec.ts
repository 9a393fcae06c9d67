import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * acl's features are fenced, so each can be read and changed alone: a feature writes only the tables its own entities map,
 * and the credentials helpers are a leaf that imports no feature. Read from the source, so a
 * raw `INSERT`/`UPDATE`/`DELETE` or a repository write on another feature's table fails here.
 */
const SRC = __dirname;
const NOT_FEATURES = new Set(['database', 'credentials']);
/** Tables a feature owns without an entity (filled by a trigger its migration creates). */
const OWNED_WITHOUT_ENTITY: Record<string, string[]> = { analytics: ['user_join_days'] };
/**
 * Columns a feature owns in another feature's table (added by its own migration): sessions
 * raises `users.token_version` and `token_version_raised_at`, and nothing else of `users`.
 */
const OWNED_COLUMNS_IN: Record<string, string[]> = { sessions: ['users'] };

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) return [];
    return [{ path, text: readFileSync(path, 'utf8') }];
  });
}

const features = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_FEATURES.has(entry.name))
  .map((entry) => ({ name: entry.name, files: sources(join(SRC, entry.name)) }));

/** Entity class name -> table, for every entity of the app. */
const tableOf = new Map<string, string>();
for (const { files } of features) {
  for (const { text } of files) {
    for (const m of text.matchAll(/@Entity\(\{ name: '([a-z_]+)' \}\)\s*export class (\w+)/g)) {
      tableOf.set(m[2], m[1]);
    }
  }
}

/** The tables a feature's code writes: raw SQL, and `getRepository(Entity).<write>`. */
function writtenTables(files: { text: string }[]): Set<string> {
  const tables = new Set<string>();
  for (const { text } of files) {
    for (const m of text.matchAll(/(?<!DO )\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+([a-z_]+)/g))
      tables.add(m[1]);
    for (const m of text.matchAll(
      /getRepository\((\w+)\)\s*\.(?:save|insert|update|upsert|delete|remove)\(/g,
    )) {
      tables.add(tableOf.get(m[1]) ?? `<unknown entity ${m[1]}>`);
    }
  }
  return tables;
}

describe('acl feature fences', () => {
  it('finds the entities it checks against', () => {
    expect([...tableOf.values()]).toEqual(
      expect.arrayContaining([
        'users',
        'user_roles',
        'groups',
        'group_members',
        'refresh_tokens',
        'invitations',
      ]),
    );
  });

  it.each(features.map((f) => [f.name, f] as const))('%s writes only its own tables', (_name, feature) => {
    const owned = new Set([
      ...feature.files.flatMap(({ text }) =>
        [...text.matchAll(/@Entity\(\{ name: '([a-z_]+)' \}\)/g)].map((m) => m[1]),
      ),
      ...(OWNED_WITHOUT_ENTITY[feature.name] ?? []),
      ...(OWNED_COLUMNS_IN[feature.name] ?? []),
    ]);
    const foreign = [...writtenTables(feature.files)].filter((table) => !owned.has(table));
    expect(foreign).toEqual([]);
  });

  it('lets sessions write only the token version columns of users', () => {
    const sessions = features.find((f) => f.name === 'sessions')!;
    const updates = sessions.files.flatMap(({ text }) =>
      [...text.matchAll(/UPDATE users SET ([^\n]*)/g)].map((m) => m[1]),
    );
    expect(updates).toEqual(['token_version = token_version + 1, token_version_raised_at = now()']);
  });

  it('keeps the credentials helpers a leaf: they import no feature', () => {
    const imports = sources(join(SRC, 'credentials')).flatMap(({ path, text }) =>
      [...text.matchAll(/from '(\.\.\/[^']+)'/g)].map((m) => `${path}: ${m[1]}`),
    );
    expect(imports).toEqual([]);
  });
});
