import { call } from './http';
import { eventually } from './poll';

/** What the merged document says when apps did not answer the gateway in time (apps/gateway/src/docs/openapi.ts). */
const PARTIAL = 'Not available when this was generated';

/**
 * The gateway's merged `/openapi.json` with every app in it. Each app builds its document on its
 * first request, and the gateway leaves out an app that did not answer within its 2 s (the
 * document then names it); on a loaded machine a first build took longer, and a test read a
 * document without three apps. So this asks again until none is missing.
 */
export async function completeOpenApi<T = Record<string, any>>(gatewayUrl: string): Promise<T> {
  const res = await eventually(
    () => call<{ info?: { description?: string } }>(gatewayUrl, '/openapi.json'),
    (r) => r.status === 200 && !String(r.body?.info?.description ?? '').includes(PARTIAL),
    { timeoutMs: 120_000, orThrow: 'every app in the merged /openapi.json' },
  );
  return res.body as T;
}
