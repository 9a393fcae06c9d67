import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { AccessTokenClaims } from '@media/contracts';
import { generateTestKeys, mintToken, type TestKeys } from '@media/testing';
import { TokenVersions } from './token-versions';
import { VerifiedTokens, type PublishedKeys } from './verified-tokens';

/** A stand-in for the JWKS key store: the test decides which keys acl publishes. */
class StandInKeys implements PublishedKeys {
  readonly keys = new Map<string, KeyObject>();
  publish(keys: TestKeys): void {
    this.keys.set(keys.kid, createPublicKey(keys.publicKeyPem));
  }
  published(kid: string): KeyObject | undefined {
    return this.keys.get(kid);
  }
}

const claimsOf = (token: string) => jwt.decode(token) as AccessTokenClaims;

describe('VerifiedTokens (with a stand-in key store)', () => {
  const signing = generateTestKeys();
  let keys: StandInKeys;
  let tokens: VerifiedTokens;

  beforeEach(() => {
    keys = new StandInKeys();
    keys.publish(signing);
    tokens = new VerifiedTokens(keys);
  });

  it('answers the claims of a remembered token, and nothing for any other text', () => {
    const token = mintToken(signing);
    expect(tokens.get(token)).toBeUndefined();
    tokens.remember(token, claimsOf(token));
    expect(tokens.get(token)).toEqual(claimsOf(token));
    expect(tokens.get(mintToken(signing))).toBeUndefined();
    expect(tokens.get(`${token}x`)).toBeUndefined();
  });

  it('forgets a token from the second of its exp on, as jsonwebtoken counts it expired', () => {
    const token = mintToken(signing);
    const claims = claimsOf(token);
    tokens.remember(token, claims);
    expect(tokens.get(token, claims.exp * 1000 - 1)).toEqual(claims);
    expect(tokens.get(token, claims.exp * 1000)).toBeUndefined();
    // Forgotten, not just hidden: an earlier clock does not bring it back.
    expect(tokens.get(token, claims.exp * 1000 - 1)).toBeUndefined();
  });

  it('stops answering once acl no longer publishes the key, or publishes another under that kid', () => {
    const retired = mintToken(signing);
    tokens.remember(retired, claimsOf(retired));
    keys.keys.delete(signing.kid);
    expect(tokens.get(retired)).toBeUndefined();

    keys.publish(signing);
    const replaced = mintToken(signing);
    tokens.remember(replaced, claimsOf(replaced));
    keys.keys.set(signing.kid, createPublicKey(generateTestKeys().publicKeyPem));
    expect(tokens.get(replaced)).toBeUndefined();
  });

  it('does not remember a token whose key is not published, that has no exp, or that is not a JWT', () => {
    const foreign = mintToken(generateTestKeys());
    tokens.remember(foreign, claimsOf(foreign));
    expect(tokens.get(foreign)).toBeUndefined();

    const token = mintToken(signing);
    const { exp: _exp, ...withoutExp } = claimsOf(token);
    tokens.remember(token, withoutExp as AccessTokenClaims);
    expect(tokens.get(token)).toBeUndefined();

    tokens.remember('not-a-jwt', claimsOf(token));
    expect(tokens.get('not-a-jwt')).toBeUndefined();
  });

  it('refuses a remembered token with 401 token_revoked once its user version rises, and never remembers a revoked one', () => {
    const versions = new TokenVersions(Date.now() - 60_000);
    versions.learned([]);
    const checked = new VerifiedTokens(keys, versions);
    const token = mintToken(signing);
    const claims = claimsOf(token);
    checked.remember(token, claims);
    expect(checked.get(token)).toEqual(claims);
    versions.raise(claims.sub, 1);
    expect(() => checked.get(token)).toThrow(expect.objectContaining({ status: 401, code: 'token_revoked' }));
    const other = mintToken(signing, { sub: claims.sub });
    expect(() => checked.remember(other, claimsOf(other))).toThrow(
      expect.objectContaining({ code: 'token_revoked' }),
    );
    const fresh = mintToken(signing, { sub: claims.sub });
    const current = { ...claimsOf(fresh), ver: 1 };
    checked.remember(fresh, current);
    expect(checked.get(fresh)).toEqual(current);
  });

  it('keeps a bounded number of bytes, dropping the least recently used token first', () => {
    const first = mintToken(signing);
    tokens.remember(first, claimsOf(first));
    // About 8 MiB of ~1 KiB entries: the first token is pushed out well before 20,000 more.
    const claims = claimsOf(first);
    const padding = 'x'.repeat(1_000);
    for (let i = 0; i < 20_000; i++) tokens.remember(`${first}.${padding}${i}`, claims);
    expect(tokens.get(first)).toBeUndefined();
    expect(tokens.get(`${first}.${padding}19999`)).toEqual(claims);
  });

  it('is one cache for the apps of a process: another app with its own key store answers a token this one verified', () => {
    const otherApp = new StandInKeys();
    otherApp.publish(signing);
    const other = new VerifiedTokens(otherApp);
    const token = mintToken(signing);
    tokens.remember(token, claimsOf(token));
    const before = VerifiedTokens.purgeExpired();
    expect(other.get(token)).toEqual(claimsOf(token));
    other.remember(token, claimsOf(token));
    expect(VerifiedTokens.purgeExpired()).toBe(before);

    // A store that publishes another key under the kid does not trust it; the first still does.
    otherApp.keys.set(signing.kid, createPublicKey(generateTestKeys().publicKeyPem));
    expect(other.get(token)).toBeUndefined();
    expect(tokens.get(token)).toEqual(claimsOf(token));
  });

  it('drops tokens at their exp even when they are never presented again', () => {
    const token = mintToken(signing);
    const { exp } = claimsOf(token);
    tokens.remember(token, claimsOf(token));
    const count = VerifiedTokens.purgeExpired(exp * 1000 - 1);
    expect(tokens.get(token, exp * 1000 - 1)).toEqual(claimsOf(token));
    expect(VerifiedTokens.purgeExpired(exp * 1000)).toBeLessThan(count);
    expect(tokens.get(token, exp * 1000 - 1)).toBeUndefined();
  });
});
