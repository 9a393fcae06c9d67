import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import { freePort } from './ports';
import type { TestKeys } from './tokens';

/** The test keys' public key as the JWK acl publishes (RS256, `sig`, their kid). */
export function publicJwk(keys: TestKeys) {
  return {
    ...createPublicKey(keys.publicKeyPem).export({ format: 'jwk' }),
    kid: keys.kid,
    alg: 'RS256',
    use: 'sig',
  };
}

/** A JWKS endpoint publishing the test keys, as acl would; `close()` stops it. */
export async function startJwks(keys: TestKeys): Promise<{ url: string; close: () => void }> {
  const body = JSON.stringify({ keys: [publicJwk(keys)] });
  const server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(body));
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/jwks.json`, close: () => server.close() };
}
