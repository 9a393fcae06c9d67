/**
 * The document the client's types are generated from (built in-process, tools/openapi) is the
 * one the gateway serves at /openapi.json: every operation the running stack serves is the same,
 * so `npm run client:generate` needs no running stack and still describes it.
 */
import { call, eventually, stack } from '@media/testing';
import { mergedDocument } from '../src/merged-document';

interface Document {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

describe('the in-process merged OpenAPI document', () => {
  it("equals the gateway's /openapi.json, path by path and schema by schema", async () => {
    const built = JSON.parse(JSON.stringify(await mergedDocument())) as Document;
    // Loading every app's code takes a while: a kept-alive socket of an earlier file may have
    // been closed by the gateway meanwhile, so a failed fetch is tried again on a new one.
    const served = await eventually(
      () => call(stack().gatewayUrl, '/openapi.json').catch(() => undefined),
      (res) => res?.status === 200,
    );
    expect(served?.status).toBe(200);
    const body = served!.body as Document;
    // E2E_APPS may boot fewer apps than the document describes: compare what is served.
    expect(Object.keys(body.paths).length).toBeGreaterThan(10);
    for (const [path, item] of Object.entries(body.paths))
      expect([path, item]).toEqual([path, built.paths[path]]);
    for (const [name, schema] of Object.entries(body.components.schemas)) {
      expect([name, schema]).toEqual([name, built.components.schemas[name]]);
    }
  }, 60_000);
});
