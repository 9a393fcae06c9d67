/**
 * What the merged OpenAPI document says about values the API really sends and takes, checked
 * with ajv on the document built in-process (the one the gateway serves): operationIds a code
 * generator can name methods after, `null` where answers carry it, money as a JSON number,
 * downloads in their stored type. The running stack's requests and answers go through Prism in
 * tools/openapi/test/prism.e2e-spec.ts.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { mergedDocument } from './merged-document';

type Operation = {
  operationId?: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
};
let document: Awaited<ReturnType<typeof mergedDocument>>;
let ajv: Ajv;

const schema = (name: string): ValidateFunction => ajv.getSchema(`openapi#/components/schemas/${name}`)!;

beforeAll(async () => {
  document = await mergedDocument();
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('password', true).addFormat('binary', true);
  ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
}, 60_000);

const operations = (): [string, Operation][] =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(
      ([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation],
    ),
  );

describe('the merged OpenAPI document', () => {
  it('gives every operation a camelCase operationId, unique across the apps', () => {
    const ids = operations().map(([, op]) => op.operationId ?? '');
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids).toEqual(
      expect.arrayContaining([
        'contentStoryCategoriesCreate',
        'chatNotificationsSettingsGet',
        'gatewayHealthLive',
      ]),
    );
  });

  it('takes null where an answer or a body carries it: a task without assignee, settings without quiet hours', () => {
    const nullable = (name: string, field: string): boolean => {
      const target = (document.components!.schemas as Record<string, { properties: Record<string, object> }>)[
        name
      ];
      // The property as written, its references resolved in the document.
      const property = JSON.stringify(target.properties[field]).replaceAll(
        '"#/components/',
        '"openapi#/components/',
      );
      return ajv.compile(JSON.parse(property) as object)(null);
    };
    expect(nullable('TaskResponse', 'assigned_to_user')).toBe(true);
    expect(nullable('SettingsResponse', 'quiet_hours')).toBe(true);
    expect(nullable('SettingsDto', 'quiet_hours')).toBe(true);
    // No schema is left that pairs `nullable` with `allOf` (validators ignore it there).
    expect(JSON.stringify(document)).not.toMatch(
      /"allOf":\[[^\]]*\],"nullable":true|"nullable":true,"allOf"/,
    );
  });

  it('takes money in a request as decimal text or a JSON number, and answers it as text', () => {
    const deal = schema('CreateDealDto');
    const body = {
      client_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      name: 'Spring',
      contracted_revenue: 1250.5,
    };
    const errors = (value: unknown): string[] =>
      deal({ ...body, contracted_revenue: value })
        ? []
        : (deal.errors ?? [])
            .filter((e) => e.instancePath.includes('contracted_revenue'))
            .map((e) => e.message!);
    expect(errors(1250.5)).toEqual([]);
    expect(errors('1250.50')).toEqual([]);
    expect(errors('12.345')).not.toEqual([]);
    expect(schema('CollectionResponse')({ amount: 1250.5 })).toBe(false);
  });

  it("declares a download's body in any media type and its errors as JSON", () => {
    const content = (document.paths as Record<string, Record<string, Operation>>)[
      '/documents/api/v1/documents/{document_id}/content'
    ].get.responses;
    expect(Object.keys(content['200'].content ?? {})).toEqual(['*/*']);
    expect(Object.keys(content['206'].content ?? {})).toEqual(['*/*']);
    expect(Object.keys(content['404'].content ?? {})).toEqual(['application/json']);
  });

  it("describes the gateway's own /health/live, /health/ready, /openapi.json and /asyncapi.json", () => {
    expect(Object.keys(document.paths ?? {})).toEqual(
      expect.arrayContaining(['/health/live', '/health/ready', '/openapi.json', '/asyncapi.json']),
    );
  });
});
