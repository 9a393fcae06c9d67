/**
 * When signing keys may be added, signed with and unpublished (docs/api/contract.md §2 "What is
 * not public"): pure rules over the published keys, so they are tested without a database.
 */

/** The JWKS's `Cache-Control: max-age`: how long a verifier may keep a key set without asking. */
export const JWKS_MAX_AGE_MS = 300_000;

/** Least time between two rotations. */
export const ROTATION_INTERVAL_MS = 60_000;

/** A published key: when it was created (published), newest first in every list below. */
export interface PublishedKey {
  kid: string;
  createdAt: Date;
}

export interface KeyRules {
  /** JWKS_MAX_KEYS: the most keys published at once. */
  maxKeys: number;
  /**
   * How long after a key is published it starts signing: every replica re-reads the keys on an
   * interval, so by then every acl publishes it and any verifier that fetches the JWKS finds it.
   */
  activationMs: number;
  /**
   * How long a key's tokens may still be presented after it stopped signing: an access token's
   * lifetime (JWT_ACCESS_TTL) plus the verifiers' cache age (the JWKS max-age).
   */
  tokensOutliveMs: number;
}

/** When `keys[index]` stopped (or will stop) signing: once the next newer key started. */
function stoppedSigning(keys: readonly PublishedKey[], index: number, rules: KeyRules): number {
  const newer = keys[index - 1];
  return newer ? newer.createdAt.getTime() + rules.activationMs : Number.POSITIVE_INFINITY;
}

/**
 * The key that signs now: the newest one published at least `activationMs` ago, or, when none
 * is that old (the very first key), the newest.
 */
export function signingKeyOf<K extends PublishedKey>(
  keys: readonly K[],
  now: number,
  rules: KeyRules,
): K | undefined {
  return keys.find((key) => key.createdAt.getTime() + rules.activationMs <= now) ?? keys[0];
}

/** Which of the oldest keys beyond `max` may go (no token of theirs can still be valid), and which must stay. */
function beyond(keys: readonly PublishedKey[], max: number, now: number, rules: KeyRules) {
  const excess = Math.max(0, keys.length - max);
  const candidates = keys.slice(keys.length - excess).map((key, offset) => {
    const stopped = stoppedSigning(keys, keys.length - excess + offset, rules);
    return { kid: key.kid, safeFrom: stopped + rules.tokensOutliveMs };
  });
  return {
    safe: candidates.filter((c) => c.safeFrom <= now).map((c) => c.kid),
    unsafe: candidates.filter((c) => c.safeFrom > now),
  };
}

/** At start: the oldest keys beyond JWKS_MAX_KEYS that may be unpublished now, and those kept for now. */
export function trimAtStart(
  keys: readonly PublishedKey[],
  now: number,
  rules: KeyRules,
): { unpublish: string[]; kept: string[] } {
  const { safe, unsafe } = beyond(keys, rules.maxKeys, now, rules);
  return { unpublish: safe, kept: unsafe.map((c) => c.kid) };
}

export type RotationPlan =
  | { allowed: true; unpublish: string[] }
  | { allowed: false; retryAfterMs: number; reason: string };

/**
 * Whether a new key may be added now (`keys`: the published ones, newest first). Refused when the
 * last rotation was less than ROTATION_INTERVAL_MS ago, or when keeping at most `maxKeys` would
 * unpublish a key whose tokens may still be valid; otherwise the oldest keys beyond the limit go.
 */
export function planRotation(keys: readonly PublishedKey[], now: number, rules: KeyRules): RotationPlan {
  const newest = keys[0];
  if (newest && now - newest.createdAt.getTime() < ROTATION_INTERVAL_MS) {
    return {
      allowed: false,
      retryAfterMs: newest.createdAt.getTime() + ROTATION_INTERVAL_MS - now,
      reason: 'The signing key was rotated less than a minute ago.',
    };
  }
  // The new key counts too: `maxKeys - 1` of these stay.
  const { safe, unsafe } = beyond(keys, rules.maxKeys - 1, now, rules);
  if (unsafe.length > 0) {
    return {
      allowed: false,
      retryAfterMs: Math.max(...unsafe.map((c) => c.safeFrom)) - now,
      reason: `A rotation now would unpublish a key whose tokens may still be valid (JWKS_MAX_KEYS is ${rules.maxKeys}).`,
    };
  }
  return { allowed: true, unpublish: safe };
}
