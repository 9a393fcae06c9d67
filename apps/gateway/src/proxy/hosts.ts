import type { IncomingMessage } from 'node:http';
import { DomainError, type TrustedProxies } from '@media/core';
import { peerAddress } from './peer-address';

/** The hosts served when ALLOWED_HOSTS is unset (PUBLIC_URL's host is added to any list). */
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** A request for a host name the gateway does not serve (docs/api/contract.md §2 "Caching and hosts"). */
export class HostNotAllowed extends DomainError {
  constructor(host: string | undefined) {
    super(
      400,
      'host_not_allowed',
      host === undefined
        ? 'The request names no host.'
        : `The host "${host.slice(0, 100)}" is not served here; add it to ALLOWED_HOSTS.`,
    );
  }
}

/** The origin absolute URLs start with (PUBLIC_URL), as the X-Forwarded-* pair the apps read. */
export interface PublicOrigin {
  proto: string;
  host: string;
}

/** `https://api.example.com:8443/` -> `{ proto: 'https', host: 'api.example.com:8443' }`. */
export function publicOriginOf(publicUrl: string | undefined): PublicOrigin | undefined {
  if (!publicUrl) return undefined;
  const url = new URL(publicUrl);
  return { proto: url.protocol.slice(0, -1), host: url.host };
}

/**
 * The name part of a Host value, lower case, without port or trailing dot: `Example.COM:3000`
 * -> `example.com`, `[::1]:3000` -> `[::1]`. Undefined for an empty value.
 */
export function hostName(value: string | undefined): string | undefined {
  const text = value?.trim().toLowerCase();
  if (!text) return undefined;
  let name: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    name = end === -1 ? text : text.slice(0, end + 1);
  } else {
    const colon = text.indexOf(':');
    name = colon === -1 ? text : text.slice(0, colon);
  }
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

const ENTRY = /^(\*|\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/;

/**
 * Parses ALLOWED_HOSTS: comma-separated names or addresses (`[::1]` for IPv6; a bare IPv6
 * address is bracketed), `.example.com` for the name and every subdomain (as Django's
 * ALLOWED_HOSTS), `*` for any host. Throws an Error naming a bad entry.
 */
export function parseAllowedHosts(spec: string): string[] {
  const entries = spec
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    // A bare IPv6 address (two colons or more) is written the way a Host header brackets it.
    .map((entry) => (/:.*:/.test(entry) && !entry.startsWith('[') ? `[${entry}]` : entry));
  for (const entry of entries) {
    if (!ENTRY.test(entry)) throw new Error(`"${entry}" is not a host name, an address or .domain`);
  }
  return entries;
}

/**
 * Which `Host` a request may name. The host judged is the one the gateway believes: the first
 * `X-Forwarded-Host` entry from a TRUSTED_PROXIES peer, the request's own `Host` otherwise; its
 * port does not count.
 */
export class HostPolicy {
  private readonly exact: ReadonlySet<string>;
  private readonly suffixes: readonly string[];
  private readonly any: boolean;

  constructor(
    allowed: readonly string[],
    private readonly trusted: TrustedProxies,
  ) {
    this.any = allowed.includes('*');
    this.exact = new Set(allowed.filter((entry) => !entry.startsWith('.')));
    this.suffixes = allowed.filter((entry) => entry.startsWith('.'));
  }

  /** Throws HostNotAllowed unless the request's host is served. */
  check(req: IncomingMessage): void {
    if (this.any) return;
    const name = hostName(this.judged(req));
    if (name !== undefined && this.allows(name)) return;
    throw new HostNotAllowed(name);
  }

  private allows(name: string): boolean {
    if (this.exact.has(name)) return true;
    return this.suffixes.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1));
  }

  private judged(req: IncomingMessage): string | undefined {
    const forwarded = req.headers['x-forwarded-host'];
    if (forwarded !== undefined && this.trusted(peerAddress(req))) {
      const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded).split(',')[0];
      if (first.trim() !== '') return first;
    }
    return req.headers.host;
  }
}
