import { planRotation, signingKeyOf, trimAtStart, type KeyRules, type PublishedKey } from './key-rules';

const MINUTE = 60_000;
const rules: KeyRules = { maxKeys: 3, activationMs: 10_000, tokensOutliveMs: 20 * MINUTE };
const now = Date.parse('2026-11-27T12:00:00Z');

/** Keys created `ages` minutes ago, newest first. */
const keys = (...ages: number[]): PublishedKey[] =>
  ages.map((age, index) => ({ kid: `k${index}`, createdAt: new Date(now - age * MINUTE) }));

describe('signingKeyOf', () => {
  it('signs with the newest key published at least the activation time ago', () => {
    const published = [
      { kid: 'new', createdAt: new Date(now - 5_000) },
      { kid: 'old', createdAt: new Date(now - 2 * MINUTE) },
    ];
    expect(signingKeyOf(published, now, rules)?.kid).toBe('old');
    expect(signingKeyOf(published, now + 5_000, rules)?.kid).toBe('new');
  });

  it('signs with the only key at once (the first start)', () => {
    expect(signingKeyOf([{ kid: 'first', createdAt: new Date(now) }], now, rules)?.kid).toBe('first');
  });
});

describe('planRotation', () => {
  it('refuses a second rotation within a minute, saying when to retry', () => {
    expect(planRotation(keys(0.5, 30), now, rules)).toEqual({
      allowed: false,
      retryAfterMs: 30_000,
      reason: 'The signing key was rotated less than a minute ago.',
    });
  });

  it('adds a key without unpublishing any while fewer than JWKS_MAX_KEYS are published', () => {
    expect(planRotation(keys(2, 60), now, rules)).toEqual({ allowed: true, unpublish: [] });
  });

  it('unpublishes the oldest key once its tokens cannot be valid any more', () => {
    // k2 stopped signing when k1 started, 30 min + 10 s ago: past 20 min.
    expect(planRotation(keys(2, 30, 90), now, rules)).toEqual({ allowed: true, unpublish: ['k2'] });
  });

  it('refuses a rotation that would unpublish a key whose tokens may still be valid', () => {
    // k2 stopped signing when k1 started, 5 min ago (plus its activation): 15 min to go.
    const plan = planRotation(keys(2, 5, 90), now, rules);
    expect(plan).toEqual({
      allowed: false,
      retryAfterMs: 15 * MINUTE + 10_000,
      reason: 'A rotation now would unpublish a key whose tokens may still be valid (JWKS_MAX_KEYS is 3).',
    });
  });
});

describe('trimAtStart', () => {
  it('unpublishes the oldest keys beyond JWKS_MAX_KEYS whose tokens cannot be valid, and keeps the others', () => {
    // Five keys, three allowed: k4 stopped signing 60 min ago, k3 5 min ago.
    expect(trimAtStart(keys(1, 2, 5, 60, 120), now, rules)).toEqual({ unpublish: ['k4'], kept: ['k3'] });
    expect(trimAtStart(keys(1, 2), now, rules)).toEqual({ unpublish: [], kept: [] });
  });
});
