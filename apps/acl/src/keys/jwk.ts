import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { PublicJwk } from './key.view';

/** RFC 7638 thumbprint of an RSA public key: SHA-256 over the required members in lexical order. */
export function rsaKeyThumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' }) as { e: string; n: string };
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

/** The JWKS entry of a private key's public half; `kid` is its thumbprint, so any holder of the key agrees on it. */
export function publicJwkOf(privateKeyPem: string): PublicJwk {
  const publicKey = createPublicKey(createPrivateKey(privateKeyPem));
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  return { kty: 'RSA', n, e, kid: rsaKeyThumbprint(publicKey), alg: 'RS256', use: 'sig' };
}
