import { posix } from 'node:path';
import ts from 'typescript';
import { baseName, dirName, kebab, kindOf, named, where, type Rule, type SourceFile } from './names';
import { NAMING_RULES } from './naming-rules';
import { classes, comments, descendants, functions, otherExports, resolve, tree } from './syntax';
import { httpUses, readsEnv } from './uses';

export type { Rule, SourceFile } from './names';

/**
 * The settled shape of an app (acl is the model), as rules over each file's syntax tree
 * (./syntax.ts). Each rule answers with one message per drift that says what to rename or move,
 * so a failing build tells the reader the fix. conventions.spec.ts runs every rule on every app,
 * and on in-memory bad examples of each, so that every rule is seen failing.
 */

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

export const isSpec = (path: string) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(path);

/** The rules that hold for libraries and tools as well as apps: limits of size, no issue numbers. */
export const EVERYWHERE = ['size', 'function-size', 'issue-references'];

/** The word issue (or issues) and a number, with spaces, a hash or a dash between. */
const ISSUE = /\bissues?[\s#-]*\d+/i;

export const RULES: Rule[] = [
  ...NAMING_RULES,
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
              `${path}: a client of the ${folder} app is not a feature: use its client from @media/app-clients, or move it into the feature that uses it`,
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

/** Every drift of the files from the shape, one message each. */
export function check(
  files: readonly SourceFile[],
  apps: readonly string[],
  rules: readonly Rule[] = RULES,
): string[] {
  return rules.flatMap((rule) => rule.check(files, apps).map((message) => `[${rule.id}] ${message}`));
}
