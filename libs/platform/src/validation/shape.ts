import 'reflect-metadata';
import type { ValidationIssue } from '@media/contracts';
import { getMetadataStorage } from 'class-validator';

type Cls = abstract new (...args: never[]) => unknown;

/** What a DTO field accepts in shape: its declared type, the most items of a list, nested objects. */
interface FieldShape {
  type: unknown;
  maxItems?: number;
  nested: boolean;
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
    const shape = fields.get(meta.propertyName) ?? {
      type: Reflect.getMetadata('design:type', cls.prototype as object, meta.propertyName) as unknown,
      nested: false,
      scalarItems: false,
      scalar: false,
    };
    shape.scalar ||= SCALARS.has(shape.type);
    if (meta.name === 'arrayMaxSize') {
      shape.maxItems = Math.min(shape.maxItems ?? Infinity, Number((meta.constraints as unknown[])[0]));
    }
    if (meta.type === 'nestedValidation') shape.nested = true;
    else if (meta.each && !OBJECT_CHECKS.has(meta.name ?? '')) shape.scalarItems = true;
    else if (!meta.each && SCALAR_CHECKS.has(meta.name ?? '')) shape.scalar = true;
    fields.set(meta.propertyName, shape);
  }
  shapes.set(cls, fields);
  return fields;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

export interface BoundedShape {
  /** The input with every oversized or misshapen value replaced by a small stand-in. */
  plain: Record<string, unknown>;
  /** Items for fields whose own checks are skipped (a list over its maximum). */
  issues: ValidationIssue[];
  /** Fields whose class-validator items are dropped in favour of `issues`. */
  settled: Set<string>;
}

/**
 * Bounds the work and the answer of a validation before class-transformer and class-validator
 * see the input (docs/api/contract.md §2). Both walk every element of every array, and the 422
 * used to list one item per element: a 400,000-element array cost seconds and tens of MB.
 *
 * - A field that takes a scalar, given an array or an object, is one item at the field: the
 *   value is replaced with `[]`, which fails the field's own type check (`string_type`,
 *   `uuid_parsing`, `enum`...) exactly once.
 * - A list longer than its `@ArrayMaxSize` is one `too_long` item, before any element is looked at.
 * - The elements of a list of scalars that are themselves arrays or objects become `null`, so
 *   each is one item at its index, whatever it held.
 * - An unknown field keeps its `extra_forbidden` item but not its content.
 */
export function boundShape(cls: Cls, value: Record<string, unknown>, loc: string[]): BoundedShape {
  const fields = fieldShapes(cls);
  const plain: Record<string, unknown> = { ...value };
  const issues: ValidationIssue[] = [];
  const settled = new Set<string>();
  for (const [key, item] of Object.entries(value)) {
    if (!isObject(item)) continue;
    const shape = fields.get(key);
    if (!shape) {
      plain[key] = null;
      continue;
    }
    if (shape.scalar) {
      plain[key] = [];
    } else if (shape.type === Array && Array.isArray(item)) {
      if (shape.maxItems !== undefined && item.length > shape.maxItems) {
        issues.push({
          loc: [...loc, key],
          msg: `List should have at most ${shape.maxItems} items, not ${item.length}`,
          type: 'too_long',
        });
        settled.add(key);
        plain[key] = [];
      } else if (shape.scalarItems && !shape.nested) {
        plain[key] = item.map((element: unknown) => (isObject(element) ? null : element));
      }
    }
  }
  return { plain, issues, settled };
}
