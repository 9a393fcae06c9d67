import { SERVICE_NAMES } from '@media/contracts';

/**
 * The gateway's own routes in the merged OpenAPI document. They need no token and are not
 * rate-limited (the limiter guards what is forwarded), so they have no 401 and no 429.
 * `/metrics` is Prometheus text for a scraper, not part of the API.
 */
const UPSTREAM = {
  type: 'object',
  required: ['status', 'http_status'],
  properties: {
    status: { type: 'string', enum: ['up', 'down'] },
    http_status: { type: 'integer', nullable: true, description: 'null when it could not be reached' },
    error: { type: 'string', description: 'Why an unreachable upstream is down' },
  },
};

const READINESS = {
  type: 'object',
  required: ['status', 'upstreams'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    upstreams: {
      type: 'object',
      required: [...SERVICE_NAMES],
      properties: Object.fromEntries(
        SERVICE_NAMES.map((app) => [app, { $ref: '#/components/schemas/GatewayUpstream' }]),
      ),
    },
  },
};

/** A description document: its version field, `info`, and the rest of its sections. */
const document = (version: string, sections: string[]) => ({
  type: 'object',
  required: [version, 'info', ...sections],
  properties: {
    [version]: { type: 'string' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' } },
    },
    ...Object.fromEntries(sections.map((section) => [section, { type: 'object' }])),
  },
});

/** Node refuses request headers over its limit before any route sees them: every route can answer it. */
const HEADERS_TOO_LARGE = {
  431: { description: 'Request headers over the limit (answered by Node, no body)' },
};

const json = (description: string, schema: object) => ({
  description,
  content: { 'application/json': { schema } },
});

export const GATEWAY_SCHEMAS = { GatewayUpstream: UPSTREAM, GatewayReadiness: READINESS };

/** The gateway's own paths, as OpenAPI path items. */
export const GATEWAY_PATHS: Record<string, object> = {
  '/health/live': {
    get: {
      operationId: 'gatewayHealthLive',
      tags: ['health'],
      summary: "The gateway's liveness: the process answers",
      security: [],
      responses: {
        200: json('Alive', {
          type: 'object',
          required: ['status'],
          properties: { status: { type: 'string', enum: ['ok'] } },
        }),
        ...HEADERS_TOO_LARGE,
      },
    },
  },
  '/health/ready': {
    get: {
      operationId: 'gatewayHealthReady',
      tags: ['health'],
      summary: "The gateway's readiness: every app's readiness, asked through its pool",
      security: [],
      responses: {
        200: json('Every app is ready', { $ref: '#/components/schemas/GatewayReadiness' }),
        503: json('An app is down, or the gateway is shutting down', {
          $ref: '#/components/schemas/GatewayReadiness',
        }),
        ...HEADERS_TOO_LARGE,
      },
    },
  },
  '/asyncapi.json': {
    get: {
      operationId: 'gatewayAsyncapi',
      tags: ['docs'],
      summary: 'The AsyncAPI 3.0 document of the NATS subjects and events (docs/events.md in words)',
      security: [],
      responses: {
        200: json('The AsyncAPI document', document('asyncapi', ['channels', 'operations'])),
        ...HEADERS_TOO_LARGE,
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'gatewayOpenapi',
      tags: ['docs'],
      summary: 'This document: the OpenAPI 3.0 description of every app through the gateway',
      security: [],
      responses: {
        200: json('The merged OpenAPI document', document('openapi', ['paths'])),
        ...HEADERS_TOO_LARGE,
      },
    },
  },
};
