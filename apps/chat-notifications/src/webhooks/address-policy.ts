import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_MAX_LENGTH } from '@media/contracts';

/** The resolver deliveries and checks use: node's `dns.lookup`, or one a test injects. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** How long the check at creation waits for DNS. */
const LOOKUP_TIMEOUT_MS = 5_000;

/** What an endpoint URL may be: the variables WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE. */
export interface UrlRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/**
 * True for an address a webhook must never reach unless private addresses are allowed: anything
 * but a public unicast address (loopback, private, link-local (169.254.169.254 included),
 * multicast, unspecified, carrier-grade NAT, unique-local, reserved, and IPv4 mapped into IPv6).
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() !== 'unicast';
}

/** The host of a URL as DNS or an address literal (`[::1]` -> `::1`). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Why a URL cannot be an endpoint's (scheme, length, credentials), or undefined; the address
 * check is `forbiddenAddresses`, since it needs DNS.
 */
export function urlProblem(text: string, rules: UrlRules): string | undefined {
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  const schemes = rules.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    return rules.allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (!url.hostname) return 'must name a host';
  return undefined;
}

/**
 * The addresses `host` resolves to that are forbidden (empty when it may be reached, or when
 * private addresses are allowed); a name that does not resolve is refused as well.
 */
export async function forbiddenAddresses(
  host: string,
  rules: UrlRules,
  resolve: Resolver,
): Promise<string[]> {
  if (rules.allowPrivate) return [];
  if (isIP(host)) return isForbiddenAddress(host) ? [host] : [];
  let addresses: LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A name that does not resolve in time is refused rather than holding the request.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([resolve(host), late]);
  } catch {
    return [host];
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return [host];
  return addresses.map((a) => a.address).filter(isForbiddenAddress);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `connect.lookup` for undici: resolves with `resolve` and refuses the connection when any
 * address is forbidden, so the address actually connected to is the one checked (a name that
 * answered a public address at creation and a private one now is refused here).
 */
export function guardedLookup(rules: UrlRules, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const answer = isIP(host) ? Promise.resolve([{ address: host, family: isIP(host) }]) : resolve(host);
    answer.then(
      (addresses) => {
        const bad = rules.allowPrivate ? [] : addresses.filter((a) => isForbiddenAddress(a.address));
        if (addresses.length === 0 || bad.length > 0) {
          const error: NodeJS.ErrnoException = new Error(
            `the address ${bad[0]?.address ?? host} of ${host} is not allowed`,
          );
          error.code = 'EADDRNOTALLOWED';
          return callback(error, '');
        }
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
