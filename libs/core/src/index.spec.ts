import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** Packages the Nest-free kernel must never load at run time. */
const HEAVY = /^(@nestjs\/|typeorm$|@nats-io\/|express$|pino-http$|passport)/;

/** The modules `file` loads at run time (type-only imports are erased, so they do not count). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)
          ? clause.namedBindings.elements.every((element) => element.isTypeOnly)
          : false);
      if (!typeOnly) found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return found;
}

/** Every package reached from `entry` through relative imports, with the file that imports it. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) {
        const base = resolve(dirname(file), specifier);
        const next = [`${base}.ts`, join(base, 'index.ts')].find(existsSync);
        if (next) visit(next);
      } else if (!specifier.startsWith('node:') && !packages.has(specifier)) {
        packages.set(specifier, file);
      }
    }
  };
  visit(entry);
  return packages;
}

describe('@media/core', () => {
  const packages = packagesReachedFrom(join(__dirname, 'index.ts'));

  it('loads neither Nest, TypeORM, NATS nor Express (the gateway runs without them)', () => {
    const heavy = [...packages]
      .filter(([name]) => HEAVY.test(name))
      .map(([name, by]) => `${name} (from ${by})`);
    expect(heavy).toEqual([]);
  });

  it('is what the walk above reads: the errors, config and token code it exports', () => {
    // Guards the test itself: an empty walk would pass the check above without proving anything.
    expect([...packages.keys()]).toEqual(
      expect.arrayContaining(['class-validator', 'jsonwebtoken', 'prom-client']),
    );
  });
});
