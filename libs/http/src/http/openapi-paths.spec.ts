import type { OpenAPIObject } from '@nestjs/swagger';
import { declarePathParameters } from './openapi-paths';

const doc = (paths: Record<string, unknown>) =>
  ({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths }) as unknown as OpenAPIObject;

describe('declarePathParameters', () => {
  it('declares each {name} of a path that no parameter declares, ids as uuids', () => {
    const result = declarePathParameters(
      doc({
        '/x/api/v1/orders/{order_id}/lines/{line}': { get: { responses: {} }, patch: { responses: {} } },
      }),
    );
    for (const method of ['get', 'patch']) {
      expect(
        (result.paths['/x/api/v1/orders/{order_id}/lines/{line}'] as Record<string, { parameters: unknown }>)[
          method
        ].parameters,
      ).toEqual([
        { name: 'order_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { name: 'line', in: 'path', required: true, schema: { type: 'string' } },
      ]);
    }
  });

  it('keeps parameters already declared and adds no duplicate', () => {
    const declared = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
    const query = { name: 'page_size', in: 'query' };
    const result = declarePathParameters(doc({ '/a/{id}': { get: { parameters: [declared, query] } } }));
    expect((result.paths['/a/{id}'] as { get: { parameters: unknown } }).get.parameters).toEqual([
      declared,
      query,
    ]);
  });
});
