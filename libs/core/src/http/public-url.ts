import { isIP } from 'node:net';
import type { Request } from 'express';

/**
 * Which peers may speak for the client in `X-Forwarded-For/-Proto/-Host` (TRUSTED_PROXIES):
 * a comma-separated list of CIDR ranges, bare addresses, or the names `loopback`, `linklocal`
 * and `uniquelocal` (Express's names for the usual ranges). Default: loopback only. Anything
 * else is refused, so a typo cannot silently trust nobody (or everybody).
 */
export type TrustedProxies = (address: string | undefined) => boolean;

const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

interface Range {
  version: 4 | 6;
  bits: bigint;
  prefix: number;
}

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = ipv4Bits(quad[1]);
    text = `${text.slice(0, -quad[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [left, right] = text.split('::');
  const head = left ? left.split(':') : [];
  const tail = right !== undefined ? (right ? right.split(':') : []) : [];
  const groups =
    right !== undefined
      ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail]
      : head;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group || '0', 16)), 0n);
}

/** A peer address as a (version, bits) pair; IPv4-mapped IPv6 is taken as the IPv4 address. */
function addressBits(address: string): { version: 4 | 6; bits: bigint } | undefined {
  const mapped = IPV4_MAPPED.exec(address)?.[1];
  const plain = mapped ?? address;
  const version = isIP(plain.split('%')[0]);
  if (version === 4) return { version: 4, bits: ipv4Bits(plain) };
  if (version === 6) return { version: 6, bits: ipv6Bits(plain) };
  return undefined;
}

function parseRange(entry: string): Range {
  const [address, prefixText, extra] = entry.split('/');
  const parsed = addressBits(address);
  if (!parsed || extra !== undefined) throw new Error(`"${entry}" is not an address or CIDR range`);
  const max = parsed.version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(max)) || prefix > max)
    throw new Error(`"${entry}" has a bad prefix length`);
  const shift = BigInt(max - prefix);
  return { version: parsed.version, bits: (parsed.bits >> shift) << shift, prefix };
}

/** Parses TRUSTED_PROXIES; throws an Error naming the bad entry. `""` or `none` trusts nobody. */
export function parseTrustedProxies(spec: string): TrustedProxies {
  const entries = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && entry !== 'none');
  const ranges = entries.flatMap((entry) => (NAMED[entry.toLowerCase()] ?? [entry]).map(parseRange));
  const cache = new Map<string, boolean>();
  return (address) => {
    if (!address || ranges.length === 0) return false;
    const known = cache.get(address);
    if (known !== undefined) return known;
    const parsed = addressBits(address);
    const trusted =
      parsed !== undefined &&
      ranges.some((range) => {
        if (range.version !== parsed.version) return false;
        const shift = BigInt((range.version === 4 ? 32 : 128) - range.prefix);
        return (parsed.bits >> shift) << shift === range.bits;
      });
    if (cache.size < 1000) cache.set(address, trusted);
    return trusted;
  };
}

/**
 * The origin the client used. `req.protocol` and `req.host` follow Express's `trust proxy`, set
 * from TRUSTED_PROXIES at boot, so X-Forwarded-Proto/-Host count only when the peer is a
 * trusted proxy (the gateway); from anyone else they are ignored.
 */
export function publicOrigin(req: Request): string {
  const host = req.host ?? 'localhost';
  return `${req.protocol}://${host}`;
}

/** The absolute URL of this request with some query parameters replaced (undefined removes one). */
export function urlWithQuery(req: Request, changes: Record<string, string | undefined>): string {
  const original = new URL(req.originalUrl, 'http://placeholder');
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) original.searchParams.delete(name);
    else original.searchParams.set(name, value);
  }
  const query = original.searchParams.toString();
  return `${publicOrigin(req)}${original.pathname}${query ? `?${query}` : ''}`;
}
