import { posix } from 'node:path';
import ts from 'typescript';
import {
  baseName,
  dirName,
  exportedClasses,
  INJECTABLE,
  kebab,
  KINDS,
  kindOf,
  pascal,
  where,
  type Kind,
  type Rule,
} from './names';
import { classes, decorators, descendants, otherExports, resolve, tree } from './syntax';

/** The rules of names: what a file holds is what its name says, and answers and requests have their files. */
export const NAMING_RULES: Rule[] = [
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
          messages.push(`${where(file)}: replace Swagger's @${name} with ${instead} from @media/http`);
        }
      }
      return messages;
    },
  },
];
