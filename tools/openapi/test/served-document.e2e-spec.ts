/**
 * The document the client's types are generated from (built in-process, tools/openapi) is the
 * one the gateway serves at /openapi.json: every operation the running stack serves is the same,
 * so `npm run client:generate` needs no running stack and still describes it.
 */
import { call, stack } from '@media/testing';
import { mergedDocument } from '../src/merged-document';

describe('the in-process merged OpenAPI document', () => {
  it("equals the gateway's /openapi.json, path by path and schema by schema", async () => {
    const served = await call(stack().gatewayUrl, '/openapi.json');
    expect(served.status).toBe(200);
    const body = served.body as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
      tags: unknown[];
    };
    const built = JSON.parse(JSON.stringify(await mergedDocument())) as typeof body;
    // E2E_APPS may boot fewer apps than the document describes: compare what is served.
    expect(Object.keys(body.paths).length).toBeGreaterThan(10);
    for (const [path, item] of Object.entries(body.paths))
      expect([path, item]).toEqual([path, built.paths[path]]);
    for (const [name, schema] of Object.entries(body.components.schemas)) {
      expect([name, schema]).toEqual([name, built.components.schemas[name]]);
    }
  }, 60_000);
});
