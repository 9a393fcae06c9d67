import { ACL_PUBLIC_ROUTES, APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';

/** First path segment -> the app serving it (docs/api/contract.md §0: `api` is chat-notifications). */
export const ROUTES: ReadonlyMap<string, ServiceName> = new Map(
  SERVICE_NAMES.map((app) => [APPS[app].prefix, app]),
);

/**
 * What the gateway itself answers instead of forwarding. Not `metrics`: those are on their own
 * listener (GATEWAY_METRICS_PORT), never the public one.
 */
export const OWN_SEGMENTS = new Set(['health', 'openapi.json', 'asyncapi.json', 'docs']);

const UPSTREAM_METRICS = /^\/[^/]+\/metrics\/?$/;
const HEALTH_PATH = /^\/(?:[^/]+\/)?health(?:\/|$)/;

/** `/health/*` of the gateway and `/<prefix>/health/*` of every app. */
export function isHealthPath(path: string): boolean {
  return HEALTH_PATH.test(path);
}

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

/** `/acl/api/v1/auth/invitations/{token}/accept` -> a pattern where `{token}` is one segment. */
const routePattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

const PUBLIC_ROUTES = [
  ...ACL_PUBLIC_ROUTES.map(({ method, path }) => ({ method, pattern: routePattern(path) })),
  // Every app's health checks and OpenAPI document.
  { method: 'GET', pattern: /^\/[^/]+\/health\/[^/]+$/ },
  { method: 'GET', pattern: /^\/[^/]+\/openapi\.json$/ },
];

/** Paths reachable without a token (docs/api/contract.md §1); everything else is checked before forwarding. */
export function isPublicPath(method: string, path: string): boolean {
  const asked = method === 'HEAD' ? 'GET' : method;
  return PUBLIC_ROUTES.some((route) => route.method === asked && route.pattern.test(path));
}
