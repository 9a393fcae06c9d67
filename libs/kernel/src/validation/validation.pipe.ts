import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { ValidationIssue } from '@media/contracts';
import { plainToInstance } from 'class-transformer';
import { isEmail, isUUID, validate, type ValidationError } from 'class-validator';
import { isDateOnly, isDateTime } from './decorators';
import { boundIssues, MAX_VALIDATION_ISSUES, ValidationFailed } from '@media/core';
import { boundShape, restoreShielded, settledKey } from './shape';
import { InvalidText, INVALID_UTF8 } from './text-decoding';
import { coerceTextValues } from './coerce';
import { hasCheckedText, InvalidJsonBody, isFormBody } from './form-body';
import { MAX_OBJECT_MEMBERS, WIDE_OBJECT_KEY } from './json-bytes';

type Source = 'body' | 'query' | 'path';

/** class-validator constraint -> the contract's stable `type` word (docs/api/contract.md §2). */
const TYPES: Record<string, string> = {
  isDefined: 'missing',
  isString: 'string_type',
  isNotEmpty: 'string_too_short',
  minLength: 'string_too_short',
  maxLength: 'string_too_long',
  isUuid: 'uuid_parsing',
  isInt: 'int_parsing',
  isNumber: 'float_parsing',
  isBoolean: 'bool_parsing',
  min: 'greater_than_equal',
  max: 'less_than_equal',
  isEnum: 'enum',
  isIn: 'enum',
  isArray: 'list_type',
  arrayMinSize: 'too_short',
  arrayMaxSize: 'too_long',
  arrayUnique: 'value_error',
  isObject: 'dict_type',
  nestedValidation: 'model_type',
  whitelistValidation: 'extra_forbidden',
  isEmail: 'value_error',
};

/** Type checks speak before range checks, so one field gets the most telling single error. */
const PRIORITY = [
  'whitelistValidation',
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isUuid',
  'isArray',
  'isObject',
  'isEnum',
  'isIn',
];

function pickConstraint(error: ValidationError): [string, string] {
  const entries = Object.entries(error.constraints ?? {});
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return entries[0];
}

function rank(name: string): number {
  const index = PRIORITY.indexOf(name);
  return index === -1 ? PRIORITY.length : index;
}

function issueType(error: ValidationError, constraint: string): string {
  const context = error.contexts?.[constraint] as { type?: string } | undefined;
  if (context?.type) return context.type;
  if (error.value === undefined && constraint !== 'whitelistValidation') return 'missing';
  return TYPES[constraint] ?? 'value_error';
}

/**
 * Item checks of `{ each: true }` constraints, so a bad array item is reported at its own index
 * (`["body","member_ids","3"]`) rather than at the array.
 */
const ITEM_CHECKS: Partial<Record<string, (value: unknown) => boolean>> = {
  isUuid: (v) => typeof v === 'string' && isUUID(v),
  isInt: (v) => Number.isInteger(v),
  isNumber: (v) => typeof v === 'number' && Number.isFinite(v),
  isString: (v) => typeof v === 'string',
  isBoolean: (v) => typeof v === 'boolean',
  isEmail: (v) => typeof v === 'string' && isEmail(v),
  isDateOnly,
  isDateTime,
};

/** Issues as they are found, kept up to what a 422 shows (docs/api/contract.md §2) and counted beyond. */
class IssueSink {
  readonly items: ValidationIssue[] = [];
  omitted = 0;

  push(issue: ValidationIssue): void {
    if (this.items.length < MAX_VALIDATION_ISSUES) this.items.push(issue);
    else this.omitted += 1;
  }
}

function collect(
  errors: ValidationError[],
  base: string[],
  out: IssueSink,
  settled: ReadonlySet<string> = new Set(),
): void {
  for (const error of errors) {
    const loc = [...base, String(error.property)];
    // A value boundShape already reported (a list over its maximum, an array for an object).
    if (settled.has(settledKey(loc))) continue;
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      const [constraint, message] = pickConstraint(error);
      const type = issueType(error, constraint);
      const msg =
        type === 'missing'
          ? 'Field required'
          : constraint === 'whitelistValidation'
            ? 'Extra inputs are not permitted'
            : message;
      const check = ITEM_CHECKS[constraint];
      let bad = 0;
      if (check && Array.isArray(error.value)) {
        (error.value as unknown[]).forEach((item, i) => {
          if (check(item)) return;
          bad += 1;
          out.push({ loc: [...loc, String(i)], msg, type });
        });
      }
      if (bad === 0) out.push({ loc, msg, type });
    }
    if (error.children?.length) collect(error.children, loc, out, settled);
  }
}

/** Flattens class-validator's error tree into the contract's 422 items (at most 50, then a count). */
export function toIssues(errors: ValidationError[], base: string[]): ValidationIssue[] {
  const out = new IssueSink();
  collect(errors, base, out);
  return boundIssues(out.items, out.omitted);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_TEXT = 'Text must not contain NUL characters or invalid Unicode';
/** Keys that reach object internals in class-transformer (and are prototype-pollution vectors anywhere). */
const RESERVED_KEYS = new Set(['constructor', '__proto__', 'prototype']);

/** Any of the characters a closer look is needed for: most text has none, and one test says so. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** Whether a string holds NUL or invalid Unicode (a lone surrogate), which no field accepts. */
export function isUnsafeText(value: string): boolean {
  return SUSPECT.test(value) && (value.includes('\u0000') || LONE_SURROGATE.test(value));
}

/** A key as it can be shown in a `loc` (NUL and lone surrogates replaced). */
const shownKey = (key: string) =>
  key.replaceAll('\u0000', '\uFFFD').replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD');

/**
 * `path` is one array, pushed and popped on the way: a loc is copied only for an item, so a body
 * of 80,000 keys or 200,000 strings costs a test per string, not an array per value.
 */
function walkUnsafeText(value: unknown, path: string[], out: IssueSink, ownKeys?: string[]): void {
  if (typeof value === 'string') {
    if (isUnsafeText(value)) out.push({ loc: [...path], msg: UNSAFE_TEXT, type: 'value_error' });
    return;
  }
  if (value instanceof InvalidText) {
    out.push({ loc: [...path], msg: INVALID_UTF8, type: 'value_error' });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    // Numbers, booleans and nulls need no loc: most elements of a long list cost nothing here.
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (typeof item === 'string' ? !isUnsafeText(item) : typeof item !== 'object' || item === null) {
        continue;
      }
      path.push(String(i));
      walkUnsafeText(item, path, out);
      path.pop();
    }
    return;
  }
  for (const key of ownKeys ?? Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (key === WIDE_OBJECT_KEY) {
      // The members the body's parser did not read (json-bytes.ts): the object is refused whole.
      out.push({
        loc: [...path],
        msg: `Object should have at most ${MAX_OBJECT_MEMBERS} members, not ${Number(item)}`,
        type: 'too_long',
      });
    } else if (isUnsafeText(key)) {
      out.push({ loc: [...path, shownKey(key)], msg: UNSAFE_TEXT, type: 'value_error' });
    } else if (RESERVED_KEYS.has(key)) {
      out.push({ loc: [...path, key], msg: `'${key}' is not accepted as a field name`, type: 'value_error' });
    } else if (typeof item === 'string' ? isUnsafeText(item) : typeof item === 'object' && item !== null) {
      path.push(key);
      walkUnsafeText(item, path, out);
      path.pop();
    }
  }
}

/**
 * Strings anywhere in a value (keys included) that hold NUL or a lone surrogate, and text that
 * was not valid UTF-8 (docs/api/contract.md §2), each at its loc. Bodies are at most 64 levels deep by now,
 * so the walk is bounded; the answer is too (50 items and a count).
 */
export function unsafeTextIssues(value: unknown, loc: string[]): ValidationIssue[] {
  const out = new IssueSink();
  walkUnsafeText(value, [...loc], out);
  return boundIssues(out.items, out.omitted);
}

/** Scalar fields of a text source (query string, form) given more than once (docs/api/contract.md §2). */
function repeatedScalarIssues(
  cls: abstract new (...args: never[]) => unknown,
  plain: Record<string, unknown>,
  loc: string[],
): ValidationIssue[] {
  return Object.entries(plain).flatMap(([key, value]) => {
    const type: unknown = Reflect.getMetadata('design:type', cls.prototype as object, key);
    return Array.isArray(value) && type !== undefined && type !== Array
      ? [{ loc: [...loc, key], msg: `Expected a single value, got ${value.length}`, type: 'value_error' }]
      : [];
  });
}

/**
 * Validates a plain value against a DTO class and returns the instance, or throws a 422 with
 * every failing field. `text` marks sources whose values are all strings (query, path, forms).
 */
export async function validateDto<T extends object>(
  cls: new () => T,
  value: unknown,
  loc: string[],
  text = false,
): Promise<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ValidationFailed.at(loc, 'Input should be a valid object', 'model_type');
  }
  const early = new IssueSink();
  // Listed once for both walks below: Object.keys of an object of 80,000 keys costs ~10 ms.
  const keys = Object.keys(value);
  // A JSON body whose bytes hold no `\u` escape and no reserved name needs no walk (json-bytes.ts).
  if (!hasCheckedText(value)) walkUnsafeText(value, [...loc], early, keys);
  if (text)
    repeatedScalarIssues(cls, value as Record<string, unknown>, loc).forEach((issue) => early.push(issue));
  if (early.items.length > 0) throw new ValidationFailed(early.items, early.omitted);
  const input = text
    ? coerceTextValues(cls, value as Record<string, unknown>)
    : (value as Record<string, unknown>);
  const shaped = boundShape(cls, input, loc, input === value ? keys : undefined);
  let instance: T;
  try {
    instance = plainToInstance(cls, shaped.plain, {
      enableImplicitConversion: false,
      exposeDefaultValues: true,
    });
  } catch {
    // A shape class-transformer cannot map is still the client's mistake, never a 500.
    throw ValidationFailed.at(loc, 'Input has a shape that cannot be read', 'model_type');
  }
  restoreShielded(instance, shaped.shielded);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
  });
  if (errors.length > 0 || shaped.issues.length > 0) {
    const out = new IssueSink();
    shaped.issues.forEach((issue) => out.push(issue));
    collect(errors, loc, out, shaped.settled);
    if (out.items.length > 0) throw new ValidationFailed(out.items, out.omitted + shaped.omitted);
  }
  return instance;
}

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object, undefined]);

/** The global pipe: DTO-typed body, query and path parameters are validated here, once. */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const source: Source | undefined =
      metadata.type === 'body'
        ? 'body'
        : metadata.type === 'query'
          ? 'query'
          : metadata.type === 'param'
            ? 'path'
            : undefined;
    if (!source) return value;
    // Answered by MalformedBodyGuard before any pipe runs; here for a pipe used on its own.
    if (source === 'body' && value instanceof InvalidJsonBody) {
      throw ValidationFailed.at(['body'], value.msg, 'json_invalid');
    }
    const cls = metadata.metatype;
    if (PRIMITIVES.has(cls) || metadata.data) {
      const loc = metadata.data ? [source, metadata.data] : [source];
      const issues = unsafeTextIssues(value, loc);
      if (issues.length > 0) throw new ValidationFailed(issues);
      return value;
    }
    const text = source !== 'body' || isFormBody(value);
    // No body at all validates as `{}` (required fields are reported); a JSON `null` is not an object.
    return validateDto(cls as new () => object, value === undefined ? {} : value, [source], text);
  }
}
