import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at 7 MiB, t=5, p=1: one of the settings OWASP's password storage guidance lists as
 * equivalent to the library's default (19 MiB, t=2, p=1), for about the same work (m × t) and a
 * third of the memory, which every login holds while it runs (the whole process's RSS stepped up
 * by 19 MiB during each one). Slow on purpose, off the event loop. A hash keeps the parameters it
 * was made with (they are in the hash), so passwords set before still verify.
 */
export const PASSWORD_HASHING = { memoryCost: 7 * 1024, timeCost: 5, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASHING);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no hash (unknown email, invited user) it still verifies against a
 * dummy hash of the same cost, so every failure takes about as long as a wrong password.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** Computes the dummy hash ahead of the first login, so that login is not the slow one. */
export function warmDummyHash(): Promise<void> {
  return verifyPassword(null, 'warm-up').then(() => undefined);
}
