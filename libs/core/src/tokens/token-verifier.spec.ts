import { checkTokenTimes } from './token-verifier';
import { cacheControlMaxAgeMs } from './jwks';

describe('checkTokenTimes', () => {
  const now = 1_800_000_000_000;
  const s = now / 1000;
  const rules = { issuer: 'i', audience: 'a', maxLifetimeMs: 900_000, clockSkewMs: 30_000 };

  it('accepts a token of exactly the configured lifetime', () => {
    expect(() => checkTokenTimes({ iat: s, exp: s + 900 }, rules, now)).not.toThrow();
  });

  it('refuses a token without exp', () => {
    expect(() => checkTokenTimes({ iat: s }, rules, now)).toThrow('The access token has no expiry.');
  });

  it('refuses a lifetime one second over the configured one', () => {
    expect(() => checkTokenTimes({ iat: s, exp: s + 901 }, rules, now)).toThrow(/lives too long/);
  });

  it('tolerates iat up to the clock skew ahead, and refuses beyond', () => {
    expect(() => checkTokenTimes({ iat: s + 30, exp: s + 930 }, rules, now)).not.toThrow();
    expect(() => checkTokenTimes({ iat: s + 31, exp: s + 931 }, rules, now)).toThrow(/in the future/);
  });

  it('bounds exp from now when iat is absent', () => {
    expect(() => checkTokenTimes({ exp: s + 930 }, rules, now)).not.toThrow();
    expect(() => checkTokenTimes({ exp: s + 931 }, rules, now)).toThrow(/lives too long/);
  });
});

describe('cacheControlMaxAgeMs', () => {
  it.each([
    ['public, max-age=300', 300_000],
    ['max-age="60"', 60_000],
    ['s-maxage=10', undefined],
    ['no-store, max-age=300', 0],
    [null, undefined],
  ])('reads %s as %s', (header, ms) => expect(cacheControlMaxAgeMs(header)).toBe(ms));
});
