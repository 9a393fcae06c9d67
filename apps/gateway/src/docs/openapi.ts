import { APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import type { Pool } from 'undici';
import { GATEWAY_PATHS, GATEWAY_SCHEMAS } from './gateway-paths';

/**
 * How request bodies are read, for every operation (docs/api/validation.md). `application/*+json`
 * is read as JSON: said here so that clients may rely on it.
 */
export const BODY_RULES = [
  'Request bodies are UTF-8: `application/json` (and any `application/*+json`, read as JSON), `application/x-www-form-urlencoded`, and `multipart/form-data` where an operation lists it.',
  'A `charset` other than UTF-8 is 415. Invalid UTF-8 or NUL in a query value, path segment, form or multipart text field is 422 `value_error` at its field; a malformed multipart body is 422 `multipart_invalid` at `["body"]`.',
  'A 422 lists at most 50 items, then one `too_many_errors` item. Fields marked `nullable` take `null`; any other field given `null` is a 422 at the field.',
].join(' ');

const FETCH_TIMEOUT_MS = 2_000;

/** The parts of an OpenAPI 3 document the merge touches; everything else is carried as is. */
export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string; license?: { name: string } };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: { name: string; description?: string }[];
  security?: unknown[];
  [key: string]: unknown;
}

async function fetchDocument(pool: Pool, app: ServiceName): Promise<OpenApiDocument | undefined> {
  try {
    const { statusCode, body } = await pool.request({
      path: `/${APPS[app].prefix}/openapi.json`,
      method: 'GET',
      headersTimeout: FETCH_TIMEOUT_MS,
      bodyTimeout: FETCH_TIMEOUT_MS,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (statusCode !== 200) {
      await body.dump();
      return undefined;
    }
    const document = (await body.json()) as OpenApiDocument;
    return typeof document === 'object' && document !== null ? document : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces `$ref` values everywhere in a JSON value, by the map's old -> new reference. */
function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renames));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string'
        ? (renames.get(inner) ?? inner)
        : rewriteRefs(inner, renames);
  }
  return out;
}

/**
 * One document from the apps' documents. Paths never collide (each app has its own prefix);
 * components may (two apps can both name a schema `ErrorBody`): an identical one is kept once,
 * a different one is renamed `<app>.<name>` together with the references to it in its app.
 */
export function mergeDocuments(
  documents: { app: ServiceName; document: OpenApiDocument }[],
  missing: ServiceName[],
): OpenApiDocument {
  const merged: OpenApiDocument & {
    paths: Record<string, unknown>;
    components: Record<string, Record<string, unknown>>;
  } = {
    openapi: '3.0.0',
    info: {
      title: 'Media back-office API',
      version: 'v1',
      // package.json: UNLICENSED.
      license: { name: 'Proprietary' },
      description: [
        missing.length === 0
          ? 'Every app, through the gateway.'
          : `Every app, through the gateway. Not available when this was generated: ${missing.join(', ')}.`,
        BODY_RULES,
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This gateway' }],
    // Every app's routes need the bearer token unless an operation says `security: []`.
    security: [{ bearer: [] }],
    paths: {},
    components: {},
    tags: [],
  };
  const tags = new Map<string, { name: string; description?: string }>();

  for (const { app, document } of documents) {
    const renames = new Map<string, string>();
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      for (const [name, value] of Object.entries(entries ?? {})) {
        const existing = merged.components[section]?.[name];
        if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value)) {
          renames.set(`#/components/${section}/${name}`, `#/components/${section}/${app}.${name}`);
        }
      }
    }
    const own = (renames.size > 0 ? rewriteRefs(document, renames) : document) as OpenApiDocument;

    for (const [section, entries] of Object.entries(own.components ?? {})) {
      const target = (merged.components[section] ??= {});
      for (const [name, value] of Object.entries(entries ?? {})) {
        const renamed = renames.has(`#/components/${section}/${name}`) ? `${app}.${name}` : name;
        target[renamed] ??= value;
      }
    }
    for (const [path, item] of Object.entries(own.paths ?? {})) merged.paths[path] ??= item;
    for (const tag of own.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
  }
  const document = withRateLimit(merged);
  // The gateway's own routes: not forwarded, so not rate-limited (added after the 429s).
  Object.assign(document.paths, GATEWAY_PATHS);
  Object.assign((document.components.schemas ??= {}), GATEWAY_SCHEMAS);
  document.tags = orderedTags(document.paths, tags);
  return document;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Logging in comes first in Swagger UI; every app's probes come last, after the business tags. */
const AUTH_TAG = 'auth';
const HEALTH_TAG = 'health';

/** What each tag groups, as Swagger UI shows it above the tag's operations. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Log in, refresh, invite correspondents and accept invitations (acl)',
  lineup: 'Monthly broadcast lineups, their slots and the assets attached to slots (content)',
  'story-categories': 'Categories of stories (content)',
  tasks: 'Workflow tasks: create, claim, start, complete, cancel (assignment)',
  bookings: 'Bookings with their lines and line assets (inventory)',
  analytics: 'Reports: revenue summary, top clients, user growth',
  clients: 'Advertising clients (commercial)',
  deals: 'Deals with clients (commercial)',
  commissions: 'Commission plans, targets, collections and team attainment (payment)',
  users: 'Users, their roles and managers (acl)',
  groups: 'Groups and their members (acl)',
  roles: 'Roles and the permissions they grant (acl)',
  correspondents: 'Correspondents (acl)',
  documents: 'Stored documents: upload, list, download, delete (documents)',
  uploads: 'Resumable uploads of large files, as the tus 1.0 protocol says (documents)',
  realtime: 'Websocket tickets for live pushes (chat-notifications)',
  chat: 'Chat rooms, members and messages (chat-notifications)',
  notifications: 'Inbox notifications and delivery preferences (chat-notifications)',
  webhooks: 'Outbound webhooks: endpoints, event types, deliveries, retry and replay (chat-notifications)',
  audit:
    "The audit trail: who changed what, hash-chained and signed; each app's list, verification and export, acl's merged copy and the keys checkpoints are signed with",
  health: "The gateway's and each app's liveness and readiness probes",
  docs: 'The descriptions of the API: this OpenAPI document and the AsyncAPI document of the NATS side',
};

/**
 * The tags Swagger UI lists, in its order: every tag an operation uses, in the order the
 * operations come (app by app), with `auth` first and the probes' `health` last; each with its
 * description (a tag an app declares keeps its own).
 */
function orderedTags(
  paths: Record<string, unknown>,
  declared: Map<string, { name: string; description?: string }>,
): { name: string; description?: string }[] {
  const used = new Map(declared);
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { tags?: string[] }>)) {
      if (!METHODS.includes(method)) continue;
      for (const name of operation?.tags ?? []) {
        if (used.has(name)) continue;
        const description = TAG_DESCRIPTIONS[name];
        used.set(name, description ? { name, description } : { name });
      }
    }
  }
  const rank = (name: string): number => (name === AUTH_TAG ? 0 : name === HEALTH_TAG ? 2 : 1);
  // A stable sort: within a rank, the order of the operations.
  return [...used.values()].sort((a, b) => rank(a.name) - rank(b.name));
}
const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail', 'code'],
  properties: { detail: { type: 'string' }, code: { type: 'string' } },
};

/**
 * The gateway rate-limits every request it forwards (public ones too), so every operation of
 * the merged document can answer its 429 `rate_limited`, with `Retry-After`; and every one but
 * the health checks its 400 `host_not_allowed` (ALLOWED_HOSTS), where the app describes no 400.
 */
function withRateLimit<D extends OpenApiDocument & { components: Record<string, Record<string, unknown>> }>(
  document: D,
): D {
  const schemas = (document.components.schemas ??= {});
  schemas.ErrorResponse ??= ERROR_SCHEMA;
  (document.components.responses ??= {}).RateLimited = {
    description: 'Too many requests from this client (the gateway): retry after `Retry-After` seconds',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
  };
  document.components.responses.HostNotAllowed = {
    description: 'The request names a host the gateway does not serve (`host_not_allowed`, ALLOWED_HOSTS)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, { responses?: object }>)) {
      if (!METHODS.includes(method) || typeof operation !== 'object' || operation === null) continue;
      const host = /\/health\//.test(path) ? {} : { 400: { $ref: '#/components/responses/HostNotAllowed' } };
      operation.responses = {
        ...host,
        ...operation.responses,
        429: { $ref: '#/components/responses/RateLimited' },
      };
    }
  }
  return document;
}

/** Fetches every app's `/<prefix>/openapi.json` in parallel and merges them; down apps are skipped. */
export async function mergedOpenApi(poolOf: (app: ServiceName) => Pool): Promise<OpenApiDocument> {
  const fetched = await Promise.all(SERVICE_NAMES.map((app) => fetchDocument(poolOf(app), app)));
  const documents: { app: ServiceName; document: OpenApiDocument }[] = [];
  const missing: ServiceName[] = [];
  SERVICE_NAMES.forEach((app, i) => {
    const document = fetched[i];
    if (document) documents.push({ app, document });
    else missing.push(app);
  });
  return mergeDocuments(documents, missing);
}
