import ts from 'typescript';
import type { SourceFile } from './names';
import { decorators, descendants, tree } from './syntax';

// What in a file's code reads the environment or builds an HTTP answer, for the rules of conventions.ts.

/** `process.env`, `process['env']` and `const { env } = process`. */
export function readsEnv(file: SourceFile): boolean {
  const isProcess = (node: ts.Node) => ts.isIdentifier(node) && node.text === 'process';
  return descendants(tree(file)).some(
    (node) =>
      (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === 'env') ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        node.argumentExpression.text === 'env') ||
      (ts.isVariableDeclaration(node) &&
        node.initializer !== undefined &&
        isProcess(node.initializer) &&
        ts.isObjectBindingPattern(node.name) &&
        node.name.elements.some((e) => (e.propertyName ?? e.name).getText() === 'env')),
  );
}

const HEADER_NAMES =
  /^(content-(type|length|range|disposition)|etag|cache-control|accept-ranges|last-modified|location|retry-after)$/i;
const RESPONSE_OBJECTS = /^(res|reply|response)$/;

/** What in a file builds an HTTP answer: each use named as a message says it. */
export function httpUses(file: SourceFile): string[] {
  const uses: string[] = [];
  // Header names in a request a worker sends out are no HTTP answer: looked for in services only.
  const service = file.path.endsWith('.service.ts');
  for (const { name } of decorators(file))
    if (['Res', 'Header', 'HttpCode'].includes(name.name)) uses.push(`@${name.name}`);
  for (const node of descendants(tree(file))) {
    if (ts.isIdentifier(node) && ['HttpStatus', 'StreamableFile'].includes(node.text)) uses.push(node.text);
    if (ts.isPropertyAccessExpression(node)) {
      const member = node.name.text;
      const assigned =
        ts.isBinaryExpression(node.parent) &&
        node.parent.left === node &&
        node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
      // Reading an answer's statusCode is a client's business (a worker calling out); setting one is not.
      if (
        ['setHeader', 'writeHead'].includes(member) ||
        (['statusCode', 'statusMessage'].includes(member) && assigned)
      )
        uses.push(`.${member}`);
      else if (
        ['status', 'header', 'set'].includes(member) &&
        ts.isIdentifier(node.expression) &&
        RESPONSE_OBJECTS.test(node.expression.text) &&
        ts.isCallExpression(node.parent)
      )
        uses.push(`${node.expression.text}.${member}(...)`);
    }
    if (
      service &&
      ((ts.isPropertyAssignment(node) &&
        ts.isStringLiteralLike(node.name) &&
        HEADER_NAMES.test(node.name.text)) ||
        (ts.isElementAccessExpression(node) &&
          ts.isStringLiteralLike(node.argumentExpression) &&
          HEADER_NAMES.test(node.argumentExpression.text)))
    )
      uses.push('HTTP header names');
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === 'status' &&
      ts.isNumericLiteral(node.initializer) &&
      /^[1-5]\d\d$/.test(node.initializer.text)
    )
      uses.push('an HTTP status code');
  }
  return uses;
}
