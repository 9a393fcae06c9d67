import type { OpenAPIObject } from '@nestjs/swagger';
import { declareSecurity } from './openapi-security';

const doc = (paths: OpenAPIObject['paths']): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: 'v1' },
  paths,
});

describe('declareSecurity', () => {
  it('gives @Public() operations security: [] and every other one the bearer scheme', () => {
    const publicGet = { 'x-public': true, responses: {} };
    const result = declareSecurity(
      doc({
        '/a': { get: publicGet, post: { responses: {} } },
        '/b': { delete: { security: [{ bearer: [] }], responses: {} } },
      }),
    );
    expect(result.security).toEqual([{ bearer: [] }]);
    expect(result.paths['/a'].get).toEqual({ security: [], responses: {} });
    expect(result.paths['/a'].post?.security).toEqual([{ bearer: [] }]);
    expect(result.paths['/b'].delete?.security).toEqual([{ bearer: [] }]);
  });

  it('leaves path-level fields that are not operations alone', () => {
    const parameters = [{ name: 'id', in: 'path' as const, required: true }];
    const result = declareSecurity(doc({ '/a/{id}': { parameters, get: { responses: {} } } }));
    expect(result.paths['/a/{id}'].parameters).toEqual(parameters);
  });
});
