import type { Request } from 'express';

function first(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.split(',')[0].trim() || undefined;
}

/** The origin the client used, from the gateway's X-Forwarded-* headers when present. */
export function publicOrigin(req: Request): string {
  const proto = first(req.headers['x-forwarded-proto']) ?? req.protocol;
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? 'localhost';
  return `${proto}://${host}`;
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
