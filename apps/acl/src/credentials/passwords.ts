import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (OWASP's 19 MiB, t=2, p=1): slow on purpose, off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no hash (unknown email, invited user) it still verifies against a
 * dummy hash of the same cost, so every failure takes about as long as a wrong password.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash(randomBytes(24).toString('base64url'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** Computes the dummy hash ahead of the first login, so that login is not the slow one. */
export function warmDummyHash(): Promise<void> {
  return verifyPassword(null, 'warm-up').then(() => undefined);
}
