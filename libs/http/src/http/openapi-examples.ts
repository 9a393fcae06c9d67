import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

/** Strings a `pattern` is tried with, in order, when the field gives no example. */
const PATTERN_CANDIDATES = [
  '1250.00',
  '2026-01-15',
  '2026-01',
  'USD',
  'ABC-123',
  'example',
  '12:00',
  'EXAMPLE',
];

const FORMATS: Record<string, string> = {
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'date-time': '2026-01-15T09:00:00Z',
  date: '2026-01-15',
  email: 'ana.silva@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  password: 'correct horse battery',
};

/** By field name, where the schema says no more than its type (ids are uuids in this system). */
const BY_NAME: [RegExp, string | number][] = [
  [/(^|_)ids?$/, FORMATS.uuid],
  [/(^|_)email$/, FORMATS.email],
  [/^month$/, 1],
  [/^year$/, 2026],
  [/(^|_)currency$/, 'USD'],
];

function stringSample(schema: Schema, name: string): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  const named = BY_NAME.find(([pattern, value]) => pattern.test(name) && typeof value === 'string');
  if (named && (!schema.pattern || new RegExp(schema.pattern).test(String(named[1]))))
    return String(named[1]);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const hit = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (hit !== undefined) return hit;
  }
  const base = 'example';
  const min = schema.minLength ?? 0;
  const text = base.length >= min ? base : base.padEnd(min, 'x');
  return schema.maxLength !== undefined ? text.slice(0, Math.max(schema.maxLength, min)) : text;
}

/**
 * A value that validates against `schema`: the field's own `example` or `default` first, then
 * one made from its type, format, enum and bounds. Objects carry their required properties and
 * the optional ones an author gave an example. An untyped nullable field is `null`.
 */
export function sampleOf(schema: Schema, schemas: Record<string, Schema>, depth = 0, name = ''): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.$ref) {
    const target = schemas[schema.$ref.replace('#/components/schemas/', '')];
    return target && depth < 8 ? sampleOf(target, schemas, depth + 1) : null;
  }
  if (schema.allOf?.length) {
    const parts = schema.allOf.map((part) => sampleOf(part, schemas, depth + 1));
    return parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  const alternative = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (alternative) return sampleOf(alternative, schemas, depth + 1);
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return stringSample(schema, name);
    case 'integer':
    case 'number': {
      const named = BY_NAME.find(([pattern, value]) => pattern.test(name) && typeof value === 'number');
      const value = (named?.[1] as number | undefined) ?? 1;
      return Math.min(Math.max(value, schema.minimum ?? value), schema.maximum ?? value);
    }
    case 'boolean':
      return true;
    case 'array': {
      const item = schema.items ? sampleOf(schema.items, schemas, depth + 1, name) : 'example';
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    default: {
      if (!schema.properties) return schema.nullable ? null : {};
      const required = new Set(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [field, property] of Object.entries(schema.properties)) {
        if (required.has(field) || property.example !== undefined) {
          out[field] = sampleOf(property, schemas, depth + 1, field);
        }
      }
      return out;
    }
  }
}

/**
 * Gives every JSON request body schema an `example` (unless it has one), so Swagger UI's "Try
 * it out" starts from a body that validates instead of `{}` for every field it cannot guess.
 * `tools/openapi/src/request-examples.spec.ts` validates each against its schema.
 */
export function declareRequestExamples(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { requestBody?: unknown }>)) {
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } })
        ?.requestBody;
      const schema = body?.content?.['application/json']?.schema;
      if (!schema) continue;
      const target = schema.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
      if (target && target.example === undefined) target.example = sampleOf(target, schemas);
    }
  }
  return document;
}

/** The decimal text of money and percentages (docs/api/contract.md §3): at most 15 digits, two fraction digits. */
export const DECIMAL_PATTERN = '^-?\\d{1,15}(\\.\\d{1,2})?$';
const DECIMAL_EXAMPLE = /^-?\d+\.\d{2}$/;

/**
 * Documents every decimal-text field (a string whose example reads like `"1250.00"`: money and
 * percentages, never floats on the wire) with its pattern, so a client or a validator knows the
 * shape without reading prose.
 */
export function declareDecimalPatterns(document: OpenAPIObject): OpenAPIObject {
  const visit = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    if (
      schema.type === 'string' &&
      schema.pattern === undefined &&
      typeof schema.example === 'string' &&
      DECIMAL_EXAMPLE.test(schema.example)
    ) {
      schema.pattern = DECIMAL_PATTERN;
    }
    for (const property of Object.values(schema.properties ?? {})) visit(property);
    visit(schema.items);
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
      visit(part);
  };
  for (const schema of Object.values((document.components?.schemas ?? {}) as Record<string, Schema>))
    visit(schema);
  return document;
}
