import type { OpenAPIObject } from '@nestjs/swagger';
import { DECIMAL_PATTERN } from './openapi-examples';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  pattern?: string;
  nullable?: boolean;
  example?: unknown;
  description?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

const REF = '#/components/schemas/';

function children(schema: Schema): Schema[] {
  return [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(schema.allOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.anyOf ?? []),
  ];
}

/**
 * A nullable reference made validators accept `null`. Nest writes `{allOf: [$ref], nullable: true}`
 * for `@ApiProperty({ type: Model, nullable: true })`, and OpenAPI 3.0's `nullable` only adds
 * `null` next to a `type` in the same schema: validators (ajv, Prism) refuse a real `null` there.
 * The referenced object is written in place with its `type: object` and `nullable: true` beside
 * it, which every 3.0 validator and client generator reads as "this object or null".
 */
export function declareNullableReferences(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const inlined = new Set<string>();
  const fix = (schema: Schema | undefined, seen: Set<Schema>): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const only = schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined;
    const target = only ? schemas[only.slice(REF.length)] : undefined;
    if (schema.nullable === true && target?.type === 'object') {
      inlined.add(only!.slice(REF.length));
      const { allOf: _ref, ...siblings } = schema;
      Object.assign(schema, structuredClone(target), siblings, { nullable: true });
      delete schema.allOf;
    }
    for (const child of children(schema)) fix(child, seen);
  };
  const seen = new Set<Schema>();
  for (const schema of Object.values(schemas)) fix(schema, seen);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { responses?: object }>)) {
      for (const response of Object.values(operation?.responses ?? {}) as {
        content?: Record<string, { schema?: Schema }>;
      }[]) {
        for (const media of Object.values(response.content ?? {})) fix(media.schema, seen);
      }
    }
  }
  // A schema only ever referred to as nullable is now written in place: not left unused.
  for (const name of inlined) {
    if (!JSON.stringify(document).includes(`"${REF}${name}"`)) delete schemas[name];
  }
  return document;
}

/** The names of the component schemas a request body refers to, directly or through others. */
function requestSchemaNames(document: OpenAPIObject, schemas: Record<string, Schema>): Set<string> {
  const names = new Set<string>();
  const visit = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    if (schema.$ref?.startsWith(REF)) {
      const name = schema.$ref.slice(REF.length);
      if (names.has(name)) return;
      names.add(name);
      visit(schemas[name]);
      return;
    }
    for (const child of children(schema)) visit(child);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { requestBody?: unknown }>)) {
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } })
        ?.requestBody;
      for (const media of Object.values(body?.content ?? {})) visit(media.schema);
    }
  }
  return names;
}

/**
 * Money and percentages in request bodies take decimal text or a JSON number
 * (docs/api/contract.md §3): a decimal-text field of a request schema becomes `anyOf` the two,
 * so a validator takes `1250.5` and a generated client may send it. Answers keep the string.
 */
export function declareDecimalInputs(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const widen = (schema: Schema): void => {
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      if (property.type === 'string' && property.pattern === DECIMAL_PATTERN && !property.nullable) {
        const { description, example, ...text } = property;
        schema.properties![field] = {
          anyOf: [text, { type: 'number' }],
          ...(description === undefined ? {} : { description }),
          ...(example === undefined ? {} : { example }),
        };
      }
    }
    for (const child of children(schema)) if (!child.$ref) widen(child);
  };
  for (const name of requestSchemaNames(document, schemas)) widen(schemas[name]);
  return document;
}
