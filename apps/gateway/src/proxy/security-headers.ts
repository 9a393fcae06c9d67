import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { TrustedProxies } from '@media/core';
import { peerAddress } from './peer-address';

/**
 * The one security-header policy of every answer the gateway sends, relayed or its own: an API
 * of JSON and files is never framed, never a document running scripts, never sniffed.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/** What an app's helmet (or anything upstream) may set: dropped from relayed answers, the policy above stands. */
export const UPSTREAM_SECURITY_HEADERS: ReadonlySet<string> = new Set([
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'content-security-policy',
  'strict-transport-security',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** `https`: HSTS only on requests that came over HTTPS; `always`; `off`. */
export type HstsMode = 'https' | 'always' | 'off';

/** One year, subdomains included (what helmet sends). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The policy's headers for one request: HSTS is sent only where it means something (RFC 6797
 * §7.2: ignored over plain HTTP), i.e. when the request came over TLS to the gateway or, from a
 * trusted proxy (TRUSTED_PROXIES), with `X-Forwarded-Proto: https`; or always when configured.
 */
export class SecurityPolicy {
  private readonly plain: Readonly<Record<string, string>> = SECURITY_HEADERS;
  private readonly secure: Readonly<Record<string, string>> = {
    ...SECURITY_HEADERS,
    'Strict-Transport-Security': HSTS,
  };

  constructor(
    private readonly trusted: TrustedProxies,
    private readonly mode: HstsMode,
  ) {}

  headersFor(req: IncomingMessage): Readonly<Record<string, string>> {
    if (this.mode === 'off') return this.plain;
    if (this.mode === 'always' || overHttps(req, this.trusted)) return this.secure;
    return this.plain;
  }
}

function overHttps(req: IncomingMessage, trusted: TrustedProxies): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  if (proto === undefined || !trusted(peerAddress(req))) return false;
  const first = (Array.isArray(proto) ? proto[0] : proto).split(',')[0].trim().toLowerCase();
  return first === 'https';
}
