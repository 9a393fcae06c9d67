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
});
