import { generateKeyPairSync } from 'node:crypto';
import { rsaThumbprint } from '@media/testing';
import { publicJwkOf } from './jwk';

describe('publicJwkOf', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('names the key by its RFC 7638 thumbprint, as tokens minted elsewhere with the same key expect', () => {
    expect(publicJwkOf(privatePem).kid).toBe(rsaThumbprint(publicPem));
  });

  it('publishes only the public members, pinned to RS256 signatures', () => {
    const jwk = publicJwkOf(privatePem);
    expect(Object.keys(jwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });

  it('gives the same kid for a PKCS#1 PEM of the same key', () => {
    const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(publicJwkOf(pkcs1).kid).toBe(publicJwkOf(privatePem).kid);
  });
});
