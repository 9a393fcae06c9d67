import 'reflect-metadata';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function coerceScalar(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === Number) return DECIMAL.test(value.trim()) ? Number(value) : value;
  if (type === Boolean) return value === 'true' ? true : value === 'false' ? false : value;
  if (type === Object) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Turns text values (query strings, path segments, form fields) into the types the DTO declares:
 * decimal text to numbers, `true`/`false` to booleans, a lone value to a one-item array, and a
 * JSON string to an object. Anything that does not convert is left as text for validation to refuse.
 */
export function coerceTextValues(
  cls: abstract new (...args: never[]) => unknown,
  plain: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...plain };
  for (const [key, value] of Object.entries(plain)) {
    const type: unknown = Reflect.getMetadata('design:type', cls.prototype as object, key);
    if (type === undefined) continue;
    if (type === Array) {
      const items = Array.isArray(value) ? value : [value];
      const itemType: unknown = Reflect.getMetadata('form:item-type', cls.prototype as object, key);
      out[key] = itemType ? items.map((item) => coerceScalar(item, itemType)) : items;
    } else {
      out[key] = coerceScalar(Array.isArray(value) && type !== Array ? value[value.length - 1] : value, type);
    }
  }
  return out;
}

/** Declares the item type of an array field that may arrive as form text (`ids=1&ids=2`). */
export function ItemType(
  type: NumberConstructor | BooleanConstructor | StringConstructor,
): PropertyDecorator {
  return (target, key) => Reflect.defineMetadata('form:item-type', type, target, key);
}
