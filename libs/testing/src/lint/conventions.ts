import { posix } from 'node:path';
import ts from 'typescript';
import {
  classes,
  comments,
  decorators,
  descendants,
  functions,
  otherExports,
  resolve,
  tree,
  type SourceText,
} from './syntax';

/**
 * The settled shape of an app (acl is the model), as rules over each file's syntax tree
 * (./syntax.ts). Each rule answers with one message per drift that says what to rename or move,
 * so a failing build tells the reader the fix. conventions.spec.ts runs every rule on every app,
 * and on in-memory bad examples of each, so that every rule is seen failing.
 */

/** One source file of an app: `path` is relative to `apps/<app>/src`, with `/` separators. */
export interface SourceFile extends SourceText {
  app: string;
}

export interface Rule {
  id: string;
  /** What the rule holds, in the words of the shape. */
  title: string;
  /** One message per drift, each naming the file and the fix. */
  check(files: readonly SourceFile[], apps: readonly string[]): string[];
}

/** The kinds of class a file name announces: `<name>.<kind>.ts` holds the class `<Name><Kind>`. */
const KINDS = {
  service: 'Service',
  controller: 'Controller',
  rpc: 'Rpc',
  worker: 'Worker',
  consumer: 'Consumer',
  guard: 'Guard',
  gateway: 'Gateway',
} as const;
type Kind = keyof typeof KINDS;

/** Folders that hold "whatever did not fit": a folder is a feature (or `database`). */
const CATCH_ALL_FOLDERS = new Set([
  'common',
  'core',
  'support',
  'http',
  'utils',
  'util',
  'shared',
  'helpers',
  'helper',
  'lib',
  'libs',
  'misc',
]);

const MAX_LINES = 400;
const MAX_FUNCTION_LINES = 100;

const where = (file: SourceFile) => `apps/${file.app}/src/${file.path}`;
const baseName = (file: SourceFile) => posix.basename(file.path);
const dirName = (file: SourceFile) => posix.dirname(file.path);
const pascal = (kebab: string) =>
  kebab
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

/** `users.service.ts` -> `{ name: 'users', kind: 'service' }`; other files -> undefined. */
function kindOf(file: SourceFile): { name: string; kind: Kind } | undefined {
  const match = /^([a-z0-9-]+)\.([a-z]+)\.ts$/.exec(baseName(file));
  if (!match || !(match[2] in KINDS)) return undefined;
  return { name: match[1], kind: match[2] as Kind };
}

/** The exported classes of a file (what a file's name announces). */
const exportedClasses = (file: SourceFile) => classes(file).filter((c) => c.exported);

const named = (names: readonly string[]) => (resolved: { name: string }) => names.includes(resolved.name);
const INJECTABLE = named(['Injectable', 'Controller', 'WebSocketGateway']);

export const isSpec = (path: string) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(path);

export const RULES: Rule[] = [
  {
    id: 'class-names',
    title:
      '`<name>.<kind>.ts` holds the class `<Name><Kind>`; an injectable or controller lives in such a file',
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        const announced = kindOf(file);
        for (const { name, exported, defaultExport, decorators: marks } of classes(file)) {
          if (!marks.some(INJECTABLE)) continue;
          if (defaultExport) {
            messages.push(
              `${where(file)}: the injectable ${name} is a default export: export it by name (export class ${name})`,
            );
          } else if (!exported) {
            messages.push(
              `${where(file)}: the injectable ${name} is not exported: export it (a module lists it, a test resolves it)`,
            );
          }
        }
        const found = exportedClasses(file);
        if (announced) {
          const expected = pascal(announced.name) + KINDS[announced.kind];
          for (const { name } of found) {
            if (name === expected) continue;
            const suffix = Object.values(KINDS).find((s) => name.endsWith(s) && name !== s);
            messages.push(
              suffix === KINDS[announced.kind]
                ? `${where(file)}: the class ${name} does not match its file: rename the class to ${expected}, or the file to ${kebab(name.slice(0, -suffix.length))}.${announced.kind}.ts`
                : `${where(file)}: a ${announced.kind} file holds only the class ${expected}: rename ${name} to ${expected}, or move it to a file of its own kind`,
            );
          }
          continue;
        }
        for (const { name, decorators: marks } of found) {
          const suffix = (Object.entries(KINDS) as [Kind, string][]).find(
            ([, s]) => name.endsWith(s) && name !== s,
          );
          if (suffix) {
            messages.push(
              `${where(file)}: the class ${name} belongs in ${dirName(file)}/${kebab(name.slice(0, -suffix[1].length))}.${suffix[0]}.ts`,
            );
          } else if (marks.some(INJECTABLE)) {
            messages.push(
              `${where(file)}: the injectable ${name} needs a kind: rename it ${name}Service in ${dirName(file)}/${kebab(name)}.service.ts (or ${name}Worker/Consumer/Guard/Gateway in a .worker/.consumer/.guard/.gateway.ts file)`,
            );
          }
        }
      }
      return messages;
    },
  },
  {
    id: 'responders',
    title: 'NATS responders (@MessagePattern / @EventPattern) live only in `<feature>.rpc.ts`',
    check(files) {
      return files
        .filter(
          (file) =>
            !file.path.endsWith('.rpc.ts') &&
            decorators(file).some(({ name }) => ['MessagePattern', 'EventPattern'].includes(name.name)),
        )
        .map(
          (file) =>
            `${where(file)}: NATS responders belong in ${dirName(file)}/${posix.basename(dirName(file))}.rpc.ts (class ${pascal(posix.basename(dirName(file)))}Rpc): move the @MessagePattern/@EventPattern handlers there`,
        );
    },
  },
  {
    id: 'responses',
    title:
      "answers are `*Response` classes in `dto/<name>.response.ts`; pages are `@ApiSuccess(X, { list: 'page' })`",
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        const inResponseFile = /(^|\/)dto\/[a-z0-9-]+\.response\.ts$/.test(file.path);
        if (file.path.endsWith('.response.ts') && !inResponseFile) {
          messages.push(
            `${where(file)}: response files live in the feature's dto/ folder: move it to ${dirName(file)}/dto/${baseName(file)}`,
          );
        }
        for (const { name } of exportedClasses(file)) {
          if (/(Body|RowDto|View|Page|PageDto)$/.test(name)) {
            const stem = name.replace(/(Body|RowDto|View|PageDto|Page|Dto)$/, '');
            messages.push(
              `${where(file)}: the class ${name} is an answer: name it ${stem}Response in ${posix.dirname(dirName(file)) === '.' || !dirName(file).endsWith('dto') ? dirName(file) + '/dto' : dirName(file)}/${kebab(stem)}.response.ts (a page is @ApiSuccess(${stem}Response, { list: 'page' }), no page class; a view is an interface in <feature>.view.ts)`,
            );
          } else if (name.endsWith('Response') && !inResponseFile) {
            messages.push(
              `${where(file)}: the class ${name} belongs in ${dirName(file).endsWith('dto') ? dirName(file) : dirName(file) + '/dto'}/${kebab(name.replace(/Response$/, ''))}.response.ts`,
            );
          } else if (inResponseFile && !name.endsWith('Response')) {
            const stem = name.replace(/Dto$/, '');
            const renamed = stem.endsWith('Response') ? stem : `${stem}Response`;
            messages.push(
              `${where(file)}: a response file holds only *Response classes: rename ${name} to ${renamed}`,
            );
          }
        }
        if (inResponseFile && otherExports(file).length > 0) {
          messages.push(
            `${where(file)}: a response file holds only the *Response classes (the OpenAPI description of an answer): move the other exports out`,
          );
        }
        for (const { name, args } of decorators(file)) {
          const [answer] = args;
          if (
            name.name === 'ApiSuccess' &&
            answer &&
            ts.isIdentifier(answer) &&
            !answer.text.endsWith('Response')
          ) {
            messages.push(
              `${where(file)}: @ApiSuccess(${answer.text}) describes an answer with a non-response class: use a *Response class from dto/<name>.response.ts`,
            );
          }
        }
        const calls = descendants(tree(file)).filter(ts.isCallExpression);
        if (calls.some((call) => resolve(call.expression)?.name === 'PageDto')) {
          messages.push(
            `${where(file)}: a page is described as @ApiSuccess(XResponse, { list: 'page' }): drop the PageDto(...) class`,
          );
        }
      }
      return messages;
    },
  },
  {
    id: 'requests',
    title:
      "request classes (`*Dto`, `*Query`, `*Params`) live in the feature's `dto/` folder, in `.dto.ts`, `.query.ts` or `.params.ts` files",
    check(files) {
      const messages: string[] = [];
      const homes: [suffix: string, ext: string][] = [
        ['Params', 'params'],
        ['Query', 'query'],
        ['Dto', 'dto'],
      ];
      for (const file of files) {
        for (const { name } of exportedClasses(file)) {
          const home = homes.find(([suffix]) => name.endsWith(suffix) && name !== suffix);
          // A *Dto in a response file is an answer misnamed: the responses rule says so.
          if (
            !home ||
            /(RowDto|PageDto)$/.test(name) ||
            (home[0] === 'Dto' && baseName(file).endsWith('.response.ts'))
          )
            continue;
          const inDto = dirName(file) === 'dto' || dirName(file).endsWith('/dto');
          if (inDto && /\.(dto|query|params)\.ts$/.test(baseName(file))) continue;
          const dto = inDto ? dirName(file) : `${dirName(file)}/dto`;
          messages.push(
            `${where(file)}: the request class ${name} belongs in ${dto}/${kebab(name.slice(0, -home[0].length))}.${home[1]}.ts (a request file of the feature's dto/ folder)`,
          );
        }
      }
      return messages;
    },
  },
  {
    id: 'swagger',
    title:
      "success answers are described with the platform's @ApiSuccess / @ApiErrors, never Swagger's raw response decorators",
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        const raw = new Set<string>();
        const isRaw = (name: string) => /^Api([A-Z]\w*)?Response$/.test(name);
        for (const { name } of decorators(file)) if (isRaw(name.name)) raw.add(name.name);
        for (const statement of tree(file).statements) {
          const bindings = ts.isImportDeclaration(statement)
            ? statement.importClause?.namedBindings
            : undefined;
          if (!bindings || !ts.isNamedImports(bindings)) continue;
          if (
            (statement as ts.ImportDeclaration).moduleSpecifier.getText().slice(1, -1) !== '@nestjs/swagger'
          )
            continue;
          for (const element of bindings.elements) {
            const imported = (element.propertyName ?? element.name).text;
            if (isRaw(imported)) raw.add(imported);
          }
        }
        for (const name of raw) {
          const instead =
            name === 'ApiNoContentResponse'
              ? "@ApiNoContent('what it means')"
              : '@ApiSuccess(XResponse, ...) (a download: @ApiBinary; no body: @ApiNoContent) / @ApiErrors(...)';
          messages.push(`${where(file)}: replace Swagger's @${name} with ${instead} from @media/platform`);
        }
      }
      return messages;
    },
  },
  {
    id: 'folders',
    title:
      'a folder is a feature (or `database`): no catch-all folders, no client of another app posing as a feature',
    check(files, apps) {
      const messages = new Set<string>();
      for (const file of files) {
        const folders = dirName(file)
          .split('/')
          .filter((part) => part !== '.');
        for (const [depth, folder] of folders.entries()) {
          const path = `apps/${file.app}/src/${folders.slice(0, depth + 1).join('/')}/`;
          if (CATCH_ALL_FOLDERS.has(folder)) {
            messages.add(
              `${path}: a catch-all folder: move each file into the feature that uses it (or a platform library) and delete the folder`,
            );
          } else if (depth === 0 && folder !== file.app && apps.includes(folder)) {
            messages.add(
              `${path}: a client of the ${folder} app is not a feature: use its client from @media/platform, or move it into the feature that uses it`,
            );
          }
        }
      }
      return [...messages];
    },
  },
  {
    id: 'size',
    title: `no production file over ${MAX_LINES} lines (generated files say so in their first line)`,
    check(files) {
      return files
        .filter((file) => !/generated/i.test(file.text.split('\n', 1)[0]))
        .map((file) => ({ file, lines: file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0) }))
        .filter(({ lines }) => lines > MAX_LINES)
        .map(
          ({ file, lines }) =>
            `${where(file)}: ${lines} lines (over ${MAX_LINES}): split it, one file per concern (views to <feature>.view.ts, a second service for a second job)`,
        );
    },
  },
  {
    id: 'function-size',
    title: `no function of a production file over ${MAX_FUNCTION_LINES} lines (a migration's SQL aside)`,
    check(files) {
      return files
        .filter((file) => !file.path.includes('/migrations/'))
        .flatMap((file) =>
          functions(file)
            .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
            .map(
              ({ name, lines }) =>
                `${where(file)}: ${name} is ${lines} lines (over ${MAX_FUNCTION_LINES}): split it into steps with names`,
            ),
        );
    },
  },
  {
    id: 'env',
    title: '`process.env` is read only in `config.ts`',
    check(files) {
      return files
        .filter((file) => baseName(file) !== 'config.ts' && readsEnv(file))
        .map(
          (file) =>
            `${where(file)}: reads process.env: read the variable in apps/${file.app}/src/config.ts (validated) and use the config`,
        );
    },
  },
  {
    id: 'http-in-services',
    title:
      'services, workers and consumers do not build HTTP answers: status codes and headers are set only by controllers',
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        if (!/\.(service|worker|consumer)\.ts$/.test(baseName(file))) continue;
        for (const what of new Set(httpUses(file))) {
          messages.push(
            `${where(file)}: uses ${what}: a ${kindOf(file)?.kind ?? 'service'} returns a view (or throws); move the HTTP status/header building to the controller`,
          );
        }
      }
      return messages;
    },
  },
  {
    id: 'views',
    title:
      'views (`interface <Name>View`, `to<Name>View`) live in `<feature>.view.ts`; services call them, never map rows themselves',
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        if (file.path.endsWith('.view.ts')) continue;
        const folder = dirName(file).replace(/\/dto$/, '');
        const move = (name: string) => {
          const stem = kebab(name.replace(/^to/, '').replace(/View$/, '')) || posix.basename(folder);
          return `${folder}/${stem}.view.ts`;
        };
        for (const statement of tree(file).statements) {
          if (
            (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
            /View$/.test(statement.name.text) &&
            otherExports(file).includes(statement)
          )
            messages.push(
              `${where(file)}: ${statement.name.text} is a view: move it to ${move(statement.name.text)}`,
            );
        }
        for (const { name, node } of functions(file)) {
          const async = (ts.getModifiers(node as ts.FunctionLikeDeclaration) ?? []).some(
            (m) => m.kind === ts.SyntaxKind.AsyncKeyword,
          );
          if (/^to\w*View$/.test(name))
            messages.push(`${where(file)}: ${name} is a view: move it to ${move(name)}`);
          // A mapper (sync, row in, view out); an async `view(id)` that loads one is a query.
          else if (/\.service\.ts$/.test(file.path) && !async && /^(view|\w+View)$/.test(name))
            messages.push(
              `${where(file)}: the service maps rows itself (${name}): make it to<Name>View in ${move(posix.basename(folder))} and call that`,
            );
        }
      }
      return messages;
    },
  },
  {
    id: 'features',
    title:
      'every feature module declares its tables with @Feature (what it owns, possibly nothing); no module maps entities without it',
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        const modules = classes(file).filter((c) => c.decorators.some(named(['Module'])));
        if (modules.length === 0) continue;
        const declared = modules.some((c) => c.decorators.some(named(['Feature'])));
        const mapsEntities = descendants(tree(file)).some(
          (node) =>
            ts.isCallExpression(node) &&
            ts.isPropertyAccessExpression(node.expression) &&
            node.expression.name.text === 'forFeature' &&
            resolve(node.expression.expression)?.name === 'TypeOrmModule',
        );
        const featureModule = new RegExp(`^([a-z0-9-]+)/\\1\\.module\\.ts$`).test(file.path);
        if (!declared && (mapsEntities || featureModule)) {
          messages.push(
            `${where(file)}: ${modules[0].name} has no @Feature: declare the entities and migrations it owns (@Feature({}) when none), so the app boots with its tables`,
          );
        }
      }
      return messages;
    },
  },
  {
    id: 'layout',
    title:
      '`src/` holds `main.ts`, `app.definition.ts`, `config.ts`, `database/` and feature folders, each with its `<feature>.module.ts` (a folder of plain functions and types aside)',
    check(files) {
      const messages = new Set<string>();
      const apps = new Set(files.filter((f) => f.path === 'app.definition.ts').map((f) => f.app));
      for (const file of files) {
        if (!apps.has(file.app)) continue; // the gateway is not a Nest app of features
        const [top, ...rest] = file.path.split('/');
        if (rest.length === 0) {
          if (!['main.ts', 'app.definition.ts', 'config.ts'].includes(top))
            messages.add(
              `${where(file)}: src/ holds only main.ts, app.definition.ts and config.ts: move it into the feature that uses it`,
            );
        } else if (
          top !== 'database' &&
          !files.some((f) => f.app === file.app && f.path === `${top}/${top}.module.ts`) &&
          // A leaf of plain functions and types that features share (acl's credentials/) is no feature.
          files.some((f) => f.app === file.app && f.path.startsWith(`${top}/`) && classes(f).length > 0)
        ) {
          messages.add(
            `apps/${file.app}/src/${top}/: a folder of src/ is a feature: give it ${top}/${top}.module.ts, or move its files into the features that use them`,
          );
        }
      }
      return [...messages];
    },
  },
  {
    id: 'issue-references',
    title:
      'no comment cites a tracker issue number (say the reason; contract references are docs/api/contract.md §N)',
    check(files) {
      return files
        .filter((file) => comments(file).some((comment) => ISSUE.test(comment)))
        .map((file) => `${where(file)}: a comment cites an issue number: say the reason instead`);
    },
  },
];

/** "issue 26", "issue #26", "issue-26", "(issue 8)", "issues 3 and 4". */
const ISSUE = /\bissues?[\s#-]*\d+/i;

/** `process.env`, `process['env']` and `const { env } = process`. */
function readsEnv(file: SourceFile): boolean {
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
function httpUses(file: SourceFile): string[] {
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

/** Every drift of the files from the shape, one message each. */
export function check(
  files: readonly SourceFile[],
  apps: readonly string[],
  rules: readonly Rule[] = RULES,
): string[] {
  return rules.flatMap((rule) => rule.check(files, apps).map((message) => `[${rule.id}] ${message}`));
}
