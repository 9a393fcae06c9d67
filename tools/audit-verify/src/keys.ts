import { readFile } from 'node:fs/promises';
import { importJWK, type JWK } from 'jose';

type VerifyKey = Awaited<ReturnType<typeof importJWK>>;

/** The keys checkpoints are verified with, by kid. */
export interface AuditKeys {
  key(kid: string): Promise<VerifyKey | undefined>;
  /** Where they came from, for the summary. */
  readonly source: string;
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

async function read(source: string): Promise<Map<string, JWK>> {
  let text: string;
  if (isUrl(source)) {
    const res = await fetch(source, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    text = await res.text();
  } else {
    text = await readFile(source, 'utf8');
  }
  let parsed: { keys?: unknown };
  try {
    parsed = JSON.parse(text) as { keys?: unknown };
  } catch {
    throw new Error(`${source} is not JSON`);
  }
  if (!Array.isArray(parsed.keys)) throw new Error(`${source} is not a JWKS (no "keys" array)`);
  const keys = new Map<string, JWK>();
  for (const jwk of parsed.keys as JWK[]) if (typeof jwk?.kid === 'string') keys.set(jwk.kid, jwk);
  return keys;
}

/**
 * acl's audit-keys.json from a file or a URL. A URL is fetched again once when a checkpoint names
 * a kid it did not hold (a key first signs after the last fetch); a file is what it is.
 */
export async function loadAuditKeys(source: string): Promise<AuditKeys> {
  let jwks = await read(source);
  let refetched = false;
  const imported = new Map<string, VerifyKey>();
  return {
    source,
    async key(kid) {
      const known = imported.get(kid);
      if (known) return known;
      if (!jwks.has(kid) && isUrl(source) && !refetched) {
        refetched = true;
        jwks = await read(source);
      }
      const jwk = jwks.get(kid);
      if (!jwk) return undefined;
      try {
        const key = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256');
        imported.set(kid, key);
        return key;
      } catch {
        return undefined;
      }
    },
  };
}
