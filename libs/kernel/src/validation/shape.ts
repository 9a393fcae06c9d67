import 'reflect-metadata';
import type { ValidationIssue } from '@media/contracts';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { MAX_VALIDATION_ISSUES } from '@media/core';

type Cls = abstract new (...args: never[]) => unknown;

/** What a DTO field accepts in shape: its declared type, the most items of a list, nested objects. */
interface FieldShape {
  type: unknown;
  maxItems?: number;
  /** `@ValidateNested()`: an object (or a list of them, see `list`) of another DTO class. */
  nested: boolean;
  /** A list: `@ValidateNested({ each: true })` or a field declared as an array. */
  list: boolean;
  /** Every element is checked as a scalar (`{ each: true }` on a string, uuid, number... check). */
  scalarItems: boolean;
  /** The field itself is checked as a scalar: no array can pass. */
  scalar: boolean;
}

/**
 * Checks that no array or object passes. `design:type` alone does not tell (a `string | null`
 * field is emitted as `Object`), the checks on the field do.
 */
const SCALAR_CHECKS = new Set([
  'isString',
  'isUuid',
  'isInt',
  'isNumber',
  'isBoolean',
  'isIn',
  'isEnum',
  'isEmail',
  'isDateOnly',
  'isDateTime',
  'isMoney',
  'matches',
  'minLength',
  'maxLength',
]);

const OBJECT_CHECKS = new Set(['isObject', 'isPlainObject', 'isNotEmptyObject']);

const SCALARS = new Set<unknown>([String, Number, Boolean, Date]);
const shapes = new WeakMap<Cls, Map<string, FieldShape>>();

function fieldShapes(cls: Cls): Map<string, FieldShape> {
  const known = shapes.get(cls);
  if (known) return known;
  const fields = new Map<string, FieldShape>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
    const type = Reflect.getMetadata('design:type', cls.prototype as object, meta.propertyName) as unknown;
    const shape = fields.get(meta.propertyName) ?? {
      type,
      nested: false,
      list: type === Array,
      scalarItems: false,
      scalar: false,
    };
    shape.scalar ||= SCALARS.has(shape.type);
    if (meta.name === 'arrayMaxSize') {
      shape.maxItems = Math.min(shape.maxItems ?? Infinity, Number((meta.constraints as unknown[])[0]));
    }
    if (meta.type === 'nestedValidation') {
      shape.nested = true;
      shape.list ||= meta.each === true;
    } else if (meta.each && !OBJECT_CHECKS.has(meta.name ?? '')) shape.scalarItems = true;
    else if (!meta.each && SCALAR_CHECKS.has(meta.name ?? '')) shape.scalar = true;
    fields.set(meta.propertyName, shape);
  }
  shapes.set(cls, fields);
  return fields;
}

const nestedClasses = new WeakMap<Cls, Map<string, Cls | undefined>>();

/**
 * The DTO class of a nested field, as class-transformer maps it (`@Type(() => X)` or a
 * `@Transform` that builds instances): asked once, with a one-element list of an empty object.
 */
function nestedClassOf(cls: Cls, key: string): Cls | undefined {
  let known = nestedClasses.get(cls);
  if (!known) nestedClasses.set(cls, (known = new Map()));
  if (known.has(key)) return known.get(key);
  let found: Cls | undefined;
  try {
    const probe = plainToInstance(cls as new () => object, { [key]: [{}] }) as Record<string, unknown>;
    const item = (probe[key] as unknown[] | undefined)?.[0];
    const ctor = isObject(item) ? (item.constructor as Cls) : undefined;
    found = ctor && ctor !== Object ? ctor : undefined;
  } catch {
    found = undefined;
  }
  known.set(key, found);
  return found;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** A field's value kept away from class-transformer, put back on the instance it builds. */
export interface Shielded {
  path: string[];
  value: unknown;
}

export interface BoundedShape {
  /** The input with every oversized or misshapen value replaced by a small stand-in. */
  plain: Record<string, unknown>;
  /** Items for values whose own checks are skipped (a list over its maximum, an array for an object). */
  issues: ValidationIssue[];
  /** Locs (joined by settledKey) whose class-validator items are dropped in favour of `issues`. */
  settled: Set<string>;
  /** Unknown fields left out of `plain` once enough are kept to fill a 422: counted, not listed. */
  omitted: number;
  /** Free-form objects and lists (no DTO class), to put back once class-transformer has run. */
  shielded: Shielded[];
}

/** The key of a loc in `BoundedShape.settled`. */
export const settledKey = (loc: readonly string[]) => loc.join('\u0000');

/** Unknown fields kept for class-validator to refuse one by one: one more than a 422 lists. */
const KEPT_EXTRAS = MAX_VALIDATION_ISSUES + 1;

class Bounder {
  readonly issues: ValidationIssue[] = [];
  readonly settled = new Set<string>();
  readonly shielded: Shielded[] = [];
  omitted = 0;
  private extras = 0;

  constructor(private readonly root: string[]) {}

  private settle(loc: string[], msg: string, type: string): void {
    this.issues.push({ loc: [...this.root, ...loc], msg, type });
    this.settled.add(settledKey([...this.root, ...loc]));
  }

  object(cls: Cls, value: object, path: string[], keys = Object.keys(value)): Record<string, unknown> {
    const fields = fieldShapes(cls);
    const plain: Record<string, unknown> = {};
    for (const key of keys) {
      const shape = fields.get(key);
      if (!shape) {
        // Refused as extra_forbidden by class-validator, without its content; past what a 422
        // shows, only counted: class-transformer's work grows with the square of an object's keys.
        if (this.extras < KEPT_EXTRAS) {
          this.extras += 1;
          plain[key] = null;
        } else this.omitted += 1;
        continue;
      }
      const item: unknown = (value as Record<string, unknown>)[key];
      plain[key] = isObject(item) ? this.field(cls, key, shape, item, [...path, key]) : item;
    }
    return plain;
  }

  private field(cls: Cls, key: string, shape: FieldShape, item: object, path: string[]): unknown {
    // A scalar field given an array or an object: `[]` fails its own type check exactly once.
    if (shape.scalar) return [];
    if (shape.nested) {
      const nested = nestedClassOf(cls, key);
      if (!shape.list) {
        if (Array.isArray(item)) {
          this.settle(path, 'Input should be a valid object', 'model_type');
          return {};
        }
        return nested ? this.object(nested, item, path) : this.shield(item, path);
      }
      if (!Array.isArray(item)) {
        this.settle(path, 'Input should be a valid list', 'list_type');
        return [];
      }
      if (this.tooLong(shape, item, path)) return [];
      return item.map((element: unknown, i) => {
        if (!isObject(element)) return element;
        if (Array.isArray(element)) {
          this.settle([...path, String(i)], 'Input should be a valid object', 'model_type');
          return {};
        }
        return nested
          ? this.object(nested, element, [...path, String(i)])
          : this.shield(element, [...path, String(i)]);
      });
    }
    if (Array.isArray(item) && this.tooLong(shape, item, path)) return [];
    // The elements of a list of scalars that are themselves arrays or objects become `null`, so
    // each is one item at its index, whatever it held.
    if (Array.isArray(item) && shape.scalarItems) {
      return item.map((element: unknown) => (isObject(element) ? null : element));
    }
    return this.shield(item, path);
  }

  /** Free-form (`metadata`): class-transformer would copy it key by key; it is put back after. */
  private shield(item: object, path: string[]): null {
    this.shielded.push({ path, value: item });
    return null;
  }

  /** A list longer than its `@ArrayMaxSize` is one `too_long` item, before any element is looked at. */
  private tooLong(shape: FieldShape, item: unknown[], path: string[]): boolean {
    if (shape.maxItems === undefined || item.length <= shape.maxItems) return false;
    this.settle(path, `List should have at most ${shape.maxItems} items, not ${item.length}`, 'too_long');
    return true;
  }
}

/**
 * Bounds the work and the answer of a validation before class-transformer and class-validator
 * see the input (docs/api/contract.md §2 "bounded cost"). Both walk every element of every
 * array and every key of every object (class-transformer's key handling grows with the square
 * of an object's keys: 80,000 unknown keys took seconds), and the 422 would list one item per
 * element. Nested DTO objects and the elements of nested lists get the same treatment:
 *
 * - An unknown field keeps its `extra_forbidden` item but not its content; after the first 51
 *   in the whole input the others are left out and counted (a 422 shows 50 items).
 * - A field that takes a scalar, given an array or an object, is one item at the field: the
 *   value is replaced with `[]`, which fails the field's own type check (`string_type`,
 *   `uuid_parsing`, `enum`...) exactly once.
 * - A list longer than its `@ArrayMaxSize` is one `too_long` item, before any element is looked at.
 * - An array where a nested object is expected (`quiet_hours: []`, an element of a list of
 *   objects) is one `model_type` item at its loc; an object where a nested list is expected is
 *   one `list_type` item.
 * - The elements of a list of scalars that are themselves arrays or objects become `null`.
 * - A free-form object or list is kept away from class-transformer and put back on the instance.
 */
export function boundShape(
  cls: Cls,
  value: Record<string, unknown>,
  loc: string[],
  keys = Object.keys(value),
): BoundedShape {
  const bounder = new Bounder(loc);
  // `keys`: the caller's Object.keys(value), when it has them (80,000 keys cost ~10 ms to list).
  const plain = bounder.object(cls, value, [], keys);
  const { issues, settled, omitted, shielded } = bounder;
  return { plain, issues, settled, omitted, shielded };
}

/** Puts the shielded values back where boundShape took them from, on class-transformer's output. */
export function restoreShielded(instance: object, shielded: Shielded[]): void {
  for (const { path, value } of shielded) {
    let target: unknown = instance;
    for (const step of path.slice(0, -1))
      target = isObject(target) ? (target as Record<string, unknown>)[step] : undefined;
    if (isObject(target)) (target as Record<string, unknown>)[path[path.length - 1]] = value;
  }
}
