import { posix } from 'node:path';

/**
 * The settled shape of an app (acl is the model), as rules over an app's source text. Each rule
 * answers with one message per drift that says what to rename or move, so a failing build tells
 * the reader the fix. conventions.spec.ts runs every rule on every app, and on an in-memory bad
 * example of each, so that every rule is seen failing.
 */

/** One source file of an app: `path` is relative to `apps/<app>/src`, with `/` separators. */
export interface SourceFile {
  app: string;
  path: string;
  text: string;
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

/** The exported classes of a file, with the decorators written right above each. */
function classesOf(text: string): { name: string; decorators: string }[] {
  return [...text.matchAll(/((?:^@[\s\S]*?\n)*?)^export (?:abstract )?class (\w+)/gm)].map((m) => ({
    name: m[2],
    decorators: m[1],
  }));
}

/** The text with comments blanked, so a rule on code does not trip over prose. */
function code(text: string): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm,
    (comment, lead: string | undefined) =>
      (lead ?? '') + comment.slice((lead ?? '').length).replace(/[^\n]/g, ' '),
  );
}

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
        const classes = classesOf(code(file.text));
        if (announced) {
          const expected = pascal(announced.name) + KINDS[announced.kind];
          for (const { name } of classes) {
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
        for (const { name, decorators } of classes) {
          const suffix = (Object.entries(KINDS) as [Kind, string][]).find(
            ([, s]) => name.endsWith(s) && name !== s,
          );
          if (suffix) {
            messages.push(
              `${where(file)}: the class ${name} belongs in ${dirName(file)}/${kebab(name.slice(0, -suffix[1].length))}.${suffix[0]}.ts`,
            );
          } else if (/@(Injectable|Controller|WebSocketGateway)\(/.test(decorators)) {
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
            !file.path.endsWith('.rpc.ts') && /@(MessagePattern|EventPattern)\(/.test(code(file.text)),
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
        const text = code(file.text);
        const inResponseFile = /(^|\/)dto\/[a-z0-9-]+\.response\.ts$/.test(file.path);
        if (file.path.endsWith('.response.ts') && !inResponseFile) {
          messages.push(
            `${where(file)}: response files live in the feature's dto/ folder: move it to ${dirName(file)}/dto/${baseName(file)}`,
          );
        }
        for (const { name } of classesOf(text)) {
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
        if (inResponseFile && /^export (const|function|interface|type|enum) /m.test(text)) {
          messages.push(
            `${where(file)}: a response file holds only the *Response classes (the OpenAPI description of an answer): move the other exports out`,
          );
        }
        for (const m of text.matchAll(/@ApiSuccess\(\s*(\w+)/g)) {
          if (!m[1].endsWith('Response')) {
            messages.push(
              `${where(file)}: @ApiSuccess(${m[1]}) describes an answer with a non-response class: use a *Response class from dto/<name>.response.ts`,
            );
          }
        }
        if (/\bPageDto\(/.test(text)) {
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
        for (const { name } of classesOf(code(file.text))) {
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
        const text = code(file.text);
        const raw = new Set<string>();
        for (const m of text.matchAll(/@(Api[A-Z]\w*Response|ApiResponse)\s*\(/g)) raw.add(m[1]);
        for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@nestjs\/swagger'/g)) {
          for (const name of m[1].split(',').map((s) => s.trim())) {
            if (/^Api\w*Response$/.test(name)) raw.add(name);
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
    id: 'env',
    title: '`process.env` is read only in `config.ts`',
    check(files) {
      return files
        .filter((file) => baseName(file) !== 'config.ts' && /\bprocess\.env\b/.test(code(file.text)))
        .map(
          (file) =>
            `${where(file)}: reads process.env: read the variable in apps/${file.app}/src/config.ts (validated) and use the config`,
        );
    },
  },
  {
    id: 'http-in-services',
    title: 'services do not build HTTP answers: status codes and headers are set only by controllers',
    check(files) {
      const messages: string[] = [];
      const patterns: [RegExp, string][] = [
        [/\bHttpStatus\b/, 'HttpStatus'],
        [/\.setHeader\(/, 'setHeader(...)'],
        [/\b(res|reply|response)\.(status|header|set|writeHead)\(/, 'res.status/header(...)'],
        [/@(Res|Header|HttpCode)\(/, 'an HTTP decorator'],
        [/\bStreamableFile\b/, 'StreamableFile'],
        [
          /['"](Content-(Type|Length|Range|Disposition)|ETag|Cache-Control|Accept-Ranges|Last-Modified|Location|Retry-After)['"]\s*\]?\s*[:=]/,
          'HTTP header names',
        ],
        [/\bstatus:\s*[1-5]\d\d\b/, 'an HTTP status code'],
      ];
      for (const file of files) {
        if (!baseName(file).endsWith('.service.ts')) continue;
        const text = code(file.text);
        for (const [pattern, what] of patterns) {
          if (pattern.test(text)) {
            messages.push(
              `${where(file)}: uses ${what}: a service returns a view (or throws); move the HTTP status/header building to the controller`,
            );
          }
        }
      }
      return messages;
    },
  },
  {
    id: 'views',
    title: 'views (`interface <Name>View`, `function to<Name>View`) live in `<feature>.view.ts`',
    check(files) {
      const messages: string[] = [];
      for (const file of files) {
        if (file.path.endsWith('.view.ts')) continue;
        const text = code(file.text);
        for (const m of text.matchAll(
          /^export (?:interface|type) (\w+View)\b|^(?:export )?function (to\w*View)\(/gm,
        )) {
          const name = m[1] ?? m[2];
          const folder = dirName(file).replace(/\/dto$/, '');
          const stem = kebab(name.replace(/^to/, '').replace(/View$/, '')) || posix.basename(folder);
          messages.push(`${where(file)}: ${name} is a view: move it to ${folder}/${stem}.view.ts`);
        }
      }
      return messages;
    },
  },
  {
    id: 'issue-references',
    title:
      'no comment cites a tracker issue number (say the reason; contract references are docs/api/contract.md §N)',
    check(files) {
      return files
        .filter((file) => /\(issue #?\d+\)|\bissue #\d+|\bsee issue \d+/i.test(file.text))
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
