import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { TrustedProxies } from '@media/core';
import { peerAddress } from './peer-address';
import { UPSTREAM_SECURITY_HEADERS } from './security-headers';

/**
 * Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus `host` (undici sets
 * the upstream's; the public one travels as X-Forwarded-Host) and `expect` (the gateway has
 * already answered any 100-continue itself).
 */
const REQUEST_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
  'expect',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-request-id',
]);

const RESPONSE_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-request-id',
]);

/** Names a `Connection` header lists are hop-by-hop too. */
function connectionListed(value: string | string[] | undefined): string[] {
  // The common values name no extra headers; skip the split on every request and response.
  if (value === undefined || value === 'keep-alive' || value === 'close' || value === 'Keep-Alive') return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  return text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'close' && name !== 'keep-alive' && name !== 'upgrade');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The client a rate limit counts: the address the trusted proxy saw, else the peer. */
export function clientAddress(req: IncomingMessage, trusted: TrustedProxies): string {
  const peer = peerAddress(req);
  const forwarded = single(req.headers['x-forwarded-for']);
  if (!forwarded || !trusted(peer)) return peer;
  // The right-most entry is the one our own proxy appended; anything left of it the client wrote.
  const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  return last || peer;
}

/**
 * Request headers for the upstream: hop-by-hop removed, X-Forwarded-* and X-Request-Id added.
 * With `publicOrigin` (PUBLIC_URL), X-Forwarded-Proto/-Host name it, so the apps' absolute URLs
 * start with it whatever host the client used.
 */
export function upstreamRequestHeaders(
  req: IncomingMessage,
  requestId: string,
  trustedProxies: TrustedProxies,
  keepUpgrade = false,
  publicOrigin?: { proto: string; host: string },
): IncomingHttpHeaders {
  const source = req.headers;
  const listed = connectionListed(source.connection);
  const headers: IncomingHttpHeaders = {};
  for (const name in source) {
    if (REQUEST_DROPPED.has(name) && !(keepUpgrade && (name === 'connection' || name === 'upgrade')))
      continue;
    if (listed.length > 0 && listed.includes(name)) continue;
    headers[name] = source[name];
  }
  const peer = peerAddress(req);
  // Only a trusted proxy (TRUSTED_PROXIES) may speak for the client; anyone else's claims go.
  const trusted = trustedProxies(peer);
  const forwardedFor = trusted ? single(source['x-forwarded-for']) : undefined;
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${peer}` : peer;
  if (publicOrigin) {
    headers['x-forwarded-proto'] = publicOrigin.proto;
    headers['x-forwarded-host'] = publicOrigin.host;
  } else {
    const ownProto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    headers['x-forwarded-proto'] = (trusted && single(source['x-forwarded-proto'])) || ownProto;
    const host = (trusted && single(source['x-forwarded-host'])) || source.host;
    if (host) headers['x-forwarded-host'] = host;
  }
  headers['x-request-id'] = requestId;
  return headers;
}

/**
 * Response headers for the client: hop-by-hop removed (Node adds its own framing), the app's
 * security headers replaced by the gateway's policy (`security`), the request's id added. Passed whole to writeHead, which then skips the per-header setHeader path.
 */
export function clientResponseHeaders(
  upstream: Record<string, string | string[] | undefined>,
  requestId: string,
  security: Readonly<Record<string, string>> = {},
): OutgoingHttpHeaders {
  const listed = connectionListed(upstream.connection);
  const headers: OutgoingHttpHeaders = {};
  for (const name in upstream) {
    if (RESPONSE_DROPPED.has(name) || (listed.length > 0 && listed.includes(name))) continue;
    if (UPSTREAM_SECURITY_HEADERS.has(name)) continue;
    const value = upstream[name];
    if (value !== undefined) headers[name] = value;
  }
  // The gateway's one policy replaces whatever the app set (see security-headers.ts).
  for (const name in security) headers[name] = security[name];
  headers['x-request-id'] = requestId;
  return headers;
}
