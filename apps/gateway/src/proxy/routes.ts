import { APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';

/** First path segment -> the app serving it (CONTRACT §0: `api` is chat-notifications). */
export const ROUTES: ReadonlyMap<string, ServiceName> = new Map(
  SERVICE_NAMES.map((app) => [APPS[app].prefix, app]),
);

/** What the gateway itself answers instead of forwarding. */
export const OWN_SEGMENTS = new Set(['health', 'openapi.json', 'docs', 'metrics']);

const UPSTREAM_METRICS = /^\/[^/]+\/metrics\/?$/;

/** An app's Prometheus endpoint: scraped on the app's own port, never routed to the public. */
export function isUpstreamMetrics(path: string): boolean {
  return UPSTREAM_METRICS.test(path);
}

/** The path part of a request target (no query), without allocating a URL object. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** `/content/api/v1/x` -> `content`; `/` -> ``. */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/**
 * True when a path holds a `.` or `..` segment, raw or percent-encoded. The gateway routes and
 * decides "public" on the raw path, so a path an upstream might normalise differently
 * (`/acl/.well-known/jwks.json/../../api/v1/users`) is refused instead of trusted.
 */
export function hasDotSegment(path: string): boolean {
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}

const PUBLIC_POST = new Set(['/acl/api/v1/auth/token', '/acl/api/v1/auth/refresh']);
const INVITATION_ACCEPT = /^\/acl\/api\/v1\/auth\/invitations\/[^/]+\/accept$/;
const UPSTREAM_HEALTH = /^\/[^/]+\/health\/[^/]+$/;
const UPSTREAM_OPENAPI = /^\/[^/]+\/openapi\.json$/;

/** Paths reachable without a token (CONTRACT §1); everything else is checked before forwarding. */
export function isPublicPath(method: string, path: string): boolean {
  const read = method === 'GET' || method === 'HEAD';
  if (method === 'POST') return PUBLIC_POST.has(path) || INVITATION_ACCEPT.test(path);
  if (!read) return false;
  return path === '/acl/.well-known/jwks.json' || UPSTREAM_HEALTH.test(path) || UPSTREAM_OPENAPI.test(path);
}
