import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: refresh and invitation tokens. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored instead of a secret token. A fast hash is enough here (unlike passwords):
 * the token has 256 bits of entropy, so nothing can be guessed from the digest.
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
