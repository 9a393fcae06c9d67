import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mergedDocument } from './merged-document';

type Schema = Record<string, unknown> & { $ref?: string; example?: unknown };
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

describe('request body examples of the merged OpenAPI document', () => {
  it('every JSON request body schema has an example, and each validates against its schema (ajv)', async () => {
    const document = await mergedDocument();
    const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
    // OpenAPI 3.0 schemas: `nullable` is a keyword, `example` an annotation.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('password', true).addFormat('binary', true);
    ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');

    const bodies = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>)
        .filter(([method]) => METHODS.includes(method))
        .flatMap(([method, operation]) => {
          const schema = operation.requestBody?.content?.['application/json']?.schema;
          return schema ? [{ key: `${method.toUpperCase()} ${path}`, schema }] : [];
        }),
    );
    expect(bodies.length).toBeGreaterThan(30);

    const problems: string[] = [];
    for (const { key, schema } of bodies) {
      const name = schema.$ref?.replace('#/components/schemas/', '');
      const target = name ? schemas[name] : schema;
      if (target?.example === undefined) {
        problems.push(`${key}: no example`);
        continue;
      }
      const validate = name
        ? ajv.getSchema(`openapi#/components/schemas/${name}`)!
        : // An inline schema's references point into the document added above.
          ajv.compile(
            JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')),
          );
      if (!validate(target.example)) {
        problems.push(`${key}: ${JSON.stringify(target.example)} ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
