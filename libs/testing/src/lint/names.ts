import { posix } from 'node:path';
import { classes, type SourceText } from './syntax';

// What the convention rules share: the file an app's rule reads, and the names a file announces.

/**
 * One source file of an app: `path` is relative to `apps/<app>/src`, with `/` separators. A file
 * of a library or a tool has no app: `root` is its folder instead (`libs/platform/src`).
 */
export interface SourceFile extends SourceText {
  app: string;
  root?: string;
}

export interface Rule {
  id: string;
  /** What the rule holds, in the words of the shape. */
  title: string;
  /** One message per drift, each naming the file and the fix. */
  check(files: readonly SourceFile[], apps: readonly string[]): string[];
}

/** The kinds of class a file name announces: `<name>.<kind>.ts` holds the class `<Name><Kind>`. */
export const KINDS = {
  service: 'Service',
  controller: 'Controller',
  rpc: 'Rpc',
  worker: 'Worker',
  consumer: 'Consumer',
  guard: 'Guard',
  gateway: 'Gateway',
} as const;
export type Kind = keyof typeof KINDS;

export const where = (file: SourceFile) => `${file.root ?? `apps/${file.app}/src`}/${file.path}`;
export const baseName = (file: SourceFile) => posix.basename(file.path);
export const dirName = (file: SourceFile) => posix.dirname(file.path);
export const pascal = (kebab: string) =>
  kebab
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
export const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

/** `users.service.ts` -> `{ name: 'users', kind: 'service' }`; other files -> undefined. */
export function kindOf(file: SourceFile): { name: string; kind: Kind } | undefined {
  const match = /^([a-z0-9-]+)\.([a-z]+)\.ts$/.exec(baseName(file));
  if (!match || !(match[2] in KINDS)) return undefined;
  return { name: match[1], kind: match[2] as Kind };
}

/** The exported classes of a file (what a file's name announces). */
export const exportedClasses = (file: SourceFile) => classes(file).filter((c) => c.exported);

export const named = (names: readonly string[]) => (resolved: { name: string }) =>
  names.includes(resolved.name);
export const INJECTABLE = named(['Injectable', 'Controller', 'WebSocketGateway']);
