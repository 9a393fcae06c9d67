import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Feature fences, read from an app's source: a feature writes only the tables its own entities
 * map (raw `INSERT`/`UPDATE`/`DELETE`, or a repository write), and a folder of plain functions
 * and types that features share imports no feature. Each app's `src/fences.spec.ts` calls
 * `describeFences` with what it allows beyond that, each allowance with its reason.
 */
export interface FenceOptions {
  /** Folders of `src/` that are not features (`database` always is not). */
  notFeatures?: string[];
  /** Folders of plain functions and types: they import no feature. */
  leaves?: string[];
  /**
   * Tables a feature writes besides those its entities map: ones it owns without an entity
   * (filled by a trigger its migration creates), or columns it owns in another feature's table.
   */
  alsoWrites?: Record<string, string[]>;
  /** Tables the app must have (a rule that stopped finding entities would pass silently). */
  tables?: string[];
}

interface Source {
  path: string;
  text: string;
}

function sources(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    if (!entry.name.endsWith('.ts') || /\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name)) return [];
    return [{ path, text: readFileSync(path, 'utf8') }];
  });
}

const ENTITY = /@Entity\(\{ name: '([a-z_]+)' \}\)\s*export class (\w+)/g;

/** The tables a feature's code writes: raw SQL, and `getRepository(Entity).<write>`. */
function writtenTables(files: readonly Source[], tableOf: ReadonlyMap<string, string>): Set<string> {
  const tables = new Set<string>();
  for (const file of files) {
    // Comments are prose ("the UPDATE and the outbox row"), not statements.
    const text = file.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
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

/** The fences of the app whose `src/` is `src` (the spec's `__dirname`). */
export function describeFences(app: string, src: string, options: FenceOptions = {}): void {
  const notFeatures = new Set(['database', ...(options.notFeatures ?? []), ...(options.leaves ?? [])]);
  const features = readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !notFeatures.has(entry.name))
    .map((entry) => ({ name: entry.name, files: sources(join(src, entry.name)) }));
  const tableOf = new Map<string, string>();
  for (const { files } of features)
    for (const { text } of files) for (const m of text.matchAll(ENTITY)) tableOf.set(m[2], m[1]);

  describe(`${app} feature fences`, () => {
    it('finds the entities it checks against', () => {
      expect([...tableOf.values()]).toEqual(expect.arrayContaining(options.tables ?? []));
    });

    if (features.length > 0) {
      it.each(features.map((f) => [f.name, f] as const))(
        '%s writes only its own tables',
        (_name, feature) => {
          const owned = new Set([
            ...feature.files.flatMap(({ text }) => [...text.matchAll(ENTITY)].map((m) => m[1])),
            ...(options.alsoWrites?.[feature.name] ?? []),
          ]);
          const foreign = [...writtenTables(feature.files, tableOf)].filter((table) => !owned.has(table));
          expect(foreign).toEqual([]);
        },
      );
    }

    for (const leaf of options.leaves ?? []) {
      it(`keeps ${leaf} a leaf: it imports no feature`, () => {
        const imports = sources(join(src, leaf)).flatMap(({ path, text }) =>
          [...text.matchAll(/from '(\.\.\/[^']+)'/g)].map((m) => `${path}: ${m[1]}`),
        );
        expect(imports).toEqual([]);
      });
    }
  });
}
