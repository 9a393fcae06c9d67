import ts from 'typescript';

// What the convention rules read from a file's syntax tree (the TypeScript compiler's parser), so
// that a rule sees code, not text: comments and strings never match a code rule, and an import
// alias (`MessagePattern as On`) or a namespace (`sw.ApiOkResponse`) is followed to its name.

/** One source file: `path` is relative to the folder it was read from, with `/` separators. */
export interface SourceText {
  path: string;
  text: string;
}

const trees = new WeakMap<SourceText, ts.SourceFile>();

export function tree(file: SourceText): ts.SourceFile {
  let sf = trees.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    trees.set(file, sf);
  }
  return sf;
}

/** Every node under `node`, depth first. */
export function descendants(node: ts.Node): ts.Node[] {
  const all: ts.Node[] = [];
  const visit = (child: ts.Node) => {
    all.push(child);
    ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  return all;
}

/** A name as the file means it: the imported name and its module, or a local name alone. */
export interface Resolved {
  name: string;
  from?: string;
}

/** Each local name a file imports: `On` -> MessagePattern of @nestjs/microservices; `sw` -> `*`. */
function importsOf(sf: ts.SourceFile): Map<string, Resolved> {
  const imports = new Map<string, Resolved>();
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (!clause) continue;
    if (clause.name) imports.set(clause.name.text, { name: 'default', from });
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) imports.set(bindings.name.text, { name: '*', from });
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        imports.set(element.name.text, { name: (element.propertyName ?? element.name).text, from });
      }
    }
  }
  return imports;
}

const importMaps = new WeakMap<ts.SourceFile, Map<string, Resolved>>();

/** What an identifier or `namespace.member` expression names, through the file's imports. */
export function resolve(expression: ts.Expression): Resolved | undefined {
  const sf = expression.getSourceFile();
  let imports = importMaps.get(sf);
  if (!imports) {
    imports = importsOf(sf);
    importMaps.set(sf, imports);
  }
  if (ts.isIdentifier(expression)) return imports.get(expression.text) ?? { name: expression.text };
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    const namespace = imports.get(expression.expression.text);
    if (namespace?.name === '*') return { name: expression.name.text, from: namespace.from };
  }
  return undefined;
}

/** The resolved names of a node's decorators (`@X()` and `@X` alike). */
export function decoratorNames(node: ts.Node): Resolved[] {
  if (!ts.canHaveDecorators(node)) return [];
  return (ts.getDecorators(node) ?? []).flatMap((decorator) => {
    const target = ts.isCallExpression(decorator.expression)
      ? decorator.expression.expression
      : decorator.expression;
    const resolved = resolve(target);
    return resolved ? [resolved] : [];
  });
}

/** Every decorator in a file with its resolved name and its call's arguments. */
export function decorators(file: SourceText): { name: Resolved; args: readonly ts.Expression[] }[] {
  return descendants(tree(file))
    .filter(ts.isDecorator)
    .flatMap((decorator) => {
      const call = ts.isCallExpression(decorator.expression) ? decorator.expression : undefined;
      const name = resolve(call ? call.expression : decorator.expression);
      return name ? [{ name, args: call?.arguments ?? [] }] : [];
    });
}

export interface ClassInfo {
  name: string;
  exported: boolean;
  defaultExport: boolean;
  decorators: Resolved[];
  node: ts.ClassDeclaration;
}

/** The classes declared at the top level of a file. */
export function classes(file: SourceText): ClassInfo[] {
  return tree(file)
    .statements.filter(ts.isClassDeclaration)
    .map((node) => {
      const modifiers = ts.getModifiers(node) ?? [];
      const has = (kind: ts.SyntaxKind) => modifiers.some((m) => m.kind === kind);
      return {
        name: node.name?.text ?? 'default',
        exported: has(ts.SyntaxKind.ExportKeyword),
        defaultExport: has(ts.SyntaxKind.DefaultKeyword),
        decorators: decoratorNames(node),
        node,
      };
    });
}

/** The exported non-class declarations at the top level: `const`, `function`, `interface`, ... */
export function otherExports(file: SourceText): ts.Statement[] {
  return tree(file).statements.filter(
    (statement) =>
      !ts.isClassDeclaration(statement) &&
      ts.canHaveModifiers(statement) &&
      (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
}

/** Every comment of a file, as written (the trivia before and after each node). */
export function comments(file: SourceText): string[] {
  const sf = tree(file);
  const ranges = new Map<number, ts.CommentRange>();
  const collect = (node: ts.Node) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(file.text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(file.text, node.end) ?? []),
    ])
      ranges.set(range.pos, range);
  };
  collect(sf.endOfFileToken);
  for (const node of descendants(sf)) collect(node);
  return [...ranges.values()].sort((x, y) => x.pos - y.pos).map((r) => file.text.slice(r.pos, r.end));
}

/** Functions, methods and arrow functions of a file with their names and lengths in lines. */
export function functions(file: SourceText): { name: string; lines: number; node: ts.Node }[] {
  const sf = tree(file);
  return descendants(sf).flatMap((node) => {
    let name: string | undefined;
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) name = node.name?.getText(sf);
    else if (
      (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) &&
      ts.isVariableDeclaration(node.parent) &&
      ts.isIdentifier(node.parent.name)
    )
      name = node.parent.name.text;
    else if (ts.isConstructorDeclaration(node)) name = 'constructor';
    if (name === undefined) return [];
    const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
    return [{ name, lines: end - start + 1, node }];
  });
}
