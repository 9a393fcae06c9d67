/**
 * One security-header policy for every response the gateway sends, relayed from an app or its
 * own: the same X-Frame-Options, CSP, Referrer-Policy... whichever answered; HSTS only
 * when the request came over HTTPS (a trusted proxy's X-Forwarded-Proto); `/docs` keeps the CSP
 * Swagger UI needs. Through the shared stack's gateway to a real acl.
 */
import { stack } from '@media/testing';

const POLICY = [
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'content-security-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

async function policyOf(path: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const res = await fetch(`${stack().gatewayUrl}${path}`, { headers });
  await res.arrayBuffer();
  const seen: Record<string, string> = {};
  for (const name of POLICY) {
    const value = res.headers.get(name);
    if (value !== null) seen[name] = value;
  }
  return seen;
}

const RELAYED = '/acl/.well-known/jwks.json';
const OWN = '/health/live';

describe('security headers at the gateway', () => {
  it('are the same policy on a relayed answer and on the gateway’s own, without HSTS over plain HTTP', async () => {
    const relayed = await policyOf(RELAYED);
    const own = await policyOf(OWN);
    expect(relayed).toEqual(own);
    expect(relayed).toEqual({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
  });

  it('add HSTS to both when a trusted proxy says the request came over HTTPS', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const relayed = await policyOf(RELAYED, https);
    const own = await policyOf(OWN, https);
    expect(relayed['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(relayed).toEqual(own);
  });

  it('keep the policy Swagger UI needs on /docs', async () => {
    const docs = await policyOf('/docs');
    expect(docs['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(docs['x-frame-options']).toBe('DENY');
  });
});
