import { mergeDocuments, type OpenApiDocument } from './openapi';

const appDocument = (prefix: string): OpenApiDocument => ({
  openapi: '3.0.0',
  paths: {
    [`/${prefix}/health/live`]: { get: { security: [], responses: { 200: { description: 'Up' } } } },
    [`/${prefix}/api/v1/things`]: {
      parameters: [],
      post: { security: [{ bearer: [] }], responses: { 201: { description: 'Created' } } },
    },
  },
  components: { schemas: { Thing: { type: 'object' } } },
});

describe('mergeDocuments', () => {
  const merged = mergeDocuments(
    [
      { app: 'content', document: appDocument('content') },
      { app: 'payment', document: appDocument('payment') },
    ],
    [],
  );

  it('says in its description which bodies are read as JSON (application/*+json too) and that other charsets are 415', () => {
    expect(merged.info?.description).toContain('application/*+json');
    expect(merged.info?.description).toContain('415');
  });

  it('names the gateway as the server, the license and bearer security by default', () => {
    expect(merged.servers).toEqual([{ url: '/', description: 'This gateway' }]);
    expect(merged.info?.license).toEqual({ name: 'Proprietary' });
    expect(merged.security).toEqual([{ bearer: [] }]);
  });

  it("adds the gateway's 429 to every operation, public ones included, and nothing else", () => {
    const paths = merged.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    expect(Object.keys(paths['/content/health/live'].get.responses ?? {})).toEqual(['200', '429']);
    expect(paths['/payment/api/v1/things'].post.responses?.[429]).toEqual({
      $ref: '#/components/responses/RateLimited',
    });
    expect(paths['/payment/api/v1/things'].parameters).toEqual([]);
    expect(merged.components?.responses?.RateLimited).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    });
    expect(merged.components?.schemas?.ErrorResponse).toBeDefined();
  });

  it('lists the tags for Swagger UI: auth first, business tags in the order of the operations, health last', () => {
    const tagged = (prefix: string, tags: string[]): OpenApiDocument => ({
      paths: Object.fromEntries(
        tags.map((tag) => [
          `/${prefix}/${tag}`,
          { get: { tags: [tag], responses: { 200: { description: 'Ok' } } } },
        ]),
      ),
    });
    const ordered = mergeDocuments(
      [
        { app: 'content', document: tagged('content', ['health', 'lineup']) },
        { app: 'acl', document: tagged('acl', ['health', 'users', 'auth']) },
      ],
      [],
    );
    expect(ordered.tags?.map((tag) => tag.name)).toEqual(['auth', 'lineup', 'users', 'docs', 'health']);
    expect(ordered.tags?.filter((tag) => !tag.description)).toEqual([]);
  });

  it("describes the gateway's own routes, public and without the forwarded routes' 429", () => {
    const paths = merged.paths as Record<string, Record<string, { security?: unknown[]; responses: object }>>;
    for (const path of ['/health/live', '/health/ready', '/openapi.json', '/asyncapi.json']) {
      expect([path, paths[path].get.security]).toEqual([path, []]);
      expect([path, '429' in paths[path].get.responses]).toEqual([path, false]);
    }
    expect(Object.keys(paths['/health/ready'].get.responses)).toEqual(['200', '431', '503']);
  });
});
