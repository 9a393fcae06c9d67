import { createPublicKey } from 'node:crypto';
import { UpstreamUnavailable } from '../errors/domain-errors';

interface Jwk {
  kid?: string;
  kty: string;
  alg?: string;
  use?: string;
  n?: string;
  e?: string;
}

/**
 * acl's public signing keys, fetched from its JWKS and cached. An unknown `kid` triggers one
 * refresh (at most every `minRefreshMs`), so rotated keys are picked up without a restart.
 */
export class JwksKeyStore {
  private keys = new Map<string, string>();
  private lastFetch = 0;
  private inflight?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly minRefreshMs = 5_000,
    private readonly fetchTimeoutMs = 2_000,
  ) {}

  /** The PEM public key for `kid`, or undefined when acl does not publish it. */
  async getKey(kid: string): Promise<string | undefined> {
    const known = this.keys.get(kid);
    if (known) return known;
    if (Date.now() - this.lastFetch >= this.minRefreshMs) await this.refresh();
    return this.keys.get(kid);
  }

  private refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async load(): Promise<void> {
    let body: { keys?: Jwk[] };
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(this.fetchTimeoutMs) });
      if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
      body = (await response.json()) as { keys?: Jwk[] };
    } catch {
      if (this.keys.size === 0)
        throw new UpstreamUnavailable('The signing keys could not be fetched from acl.');
      return;
    }
    this.lastFetch = Date.now();
    const next = new Map<string, string>();
    for (const jwk of body.keys ?? []) {
      if (!jwk.kid || jwk.kty !== 'RSA' || (jwk.alg && jwk.alg !== 'RS256')) continue;
      const pem = createPublicKey({ key: jwk as unknown as import('node:crypto').JsonWebKey, format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      next.set(jwk.kid, pem);
    }
    this.keys = next;
  }
}
