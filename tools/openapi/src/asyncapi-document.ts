/**
 * The AsyncAPI 3.0 document of the NATS side, generated from `libs/contracts`: a channel per
 * request/reply subject (its request, its reply and the error reply) and per JetStream event
 * (the envelope around its payload), the operations of the app that answers or publishes each,
 * and the headers. The payload schemas are the contracts' TypeScript types as JSON Schema
 * (ts-json-schema-generator), so a changed type changes the document.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EVENT_SUBJECTS, EVENTS_STREAM, RPC_SUBJECTS, type ServiceName } from '@media/contracts';
import { createGenerator } from 'ts-json-schema-generator';

/** The repository's root, from the source (tests) or from dist/ (the npm script). */
export const ROOT = (function root(dir: string): string {
  return existsSync(join(dir, 'nx.json')) ? dir : root(dirname(dir));
})(__dirname);
const CONTRACTS = 'libs/contracts/src/index.ts';

type Schema = Record<string, unknown>;

/** The app that answers a subject or publishes an event, by its first segment. */
const OWNER: Record<string, ServiceName> = {
  acl: 'acl',
  documents: 'documents',
  assignment: 'assignment',
  notifications: 'chat-notifications',
  chat: 'chat-notifications',
};

export function ownerOf(subject: string): ServiceName {
  const owner = OWNER[subject.split('.')[0]];
  if (!owner) throw new Error(`no app owns ${subject}: add its first segment to OWNER`);
  return owner;
}

/** `acl.users.get-many` -> `aclUsersGetMany`: channel, message and operation ids. */
export function idOf(subject: string): string {
  return subject
    .split(/[.-]/)
    .map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1)))
    .join('');
}

/** `#/definitions/X` (the generator's) -> `#/components/schemas/X` (AsyncAPI's). */
function moveRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(moveRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string'
        ? inner.replace('#/definitions/', '#/components/schemas/')
        : moveRefs(inner),
    ]),
  );
}

const REQUEST_HEADERS = {
  type: 'object',
  properties: {
    'X-Request-Id': { type: 'string', description: "Appears in the responder's logs" },
    traceparent: { type: 'string', description: "W3C trace context: the responder's span joins the trace" },
  },
};

const ERROR_HEADERS = {
  type: 'object',
  required: ['Nats-Service-Error', 'Nats-Service-Error-Code'],
  properties: {
    'Nats-Service-Error': { type: 'string', description: 'The error, in words' },
    'Nats-Service-Error-Code': { type: 'string', description: 'The status, e.g. `422`' },
  },
};

const DESCRIPTION = [
  'The NATS side of the media back office: request/reply subjects on core NATS and durable events on JetStream.',
  'A request is plain JSON published with a reply subject; the answer is plain JSON on that reply subject. Each app listens in one queue group named after it, so replicas share the requests.',
  `A failure is \`{"error": {"status", "code", "detail"}}\` with the \`Nats-Service-Error\` and \`Nats-Service-Error-Code\` headers; a subject nobody answers gets NATS's "no responders" at once.`,
  `Events are kept in the JetStream stream \`${EVENTS_STREAM}\`, each in the envelope \`{id, subject, occurred_at, data, meta}\`; consumers are idempotent on \`id\`.`,
].join('\n\n');

/** The contracts' types as JSON Schema: the request/reply map, the event map and the wire shapes. */
function contractSchemas(): { definitions: Record<string, Schema> } {
  const generator = createGenerator({
    path: join(ROOT, CONTRACTS),
    tsconfig: join(ROOT, 'tsconfig.base.json'),
    // The build type-checks the contracts; the generator only reads their shapes.
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    additionalProperties: false,
  });
  const definitions: Record<string, Schema> = {};
  for (const type of ['RpcMap', 'EventMap', 'RpcErrorPayload', 'MessageMeta']) {
    Object.assign(definitions, generator.createSchema(type).definitions as Record<string, Schema>);
  }
  return { definitions: moveRefs(definitions) as Record<string, Schema> };
}

/** The AsyncAPI 3.0 document, as plain JSON. */
export function asyncApiDocument(): Record<string, unknown> {
  const { definitions } = contractSchemas();
  const rpc = (definitions.RpcMap.properties ?? {}) as Record<
    string,
    { properties: { req: Schema; res: Schema }; description?: string }
  >;
  const events = (definitions.EventMap.properties ?? {}) as Record<string, Schema>;
  delete definitions.RpcMap;
  delete definitions.EventMap;

  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {
    RpcError: {
      name: 'RpcError',
      title: 'Error reply',
      summary: 'A request that failed: its status, code and detail (a 422 lists each failing field).',
      headers: ERROR_HEADERS,
      payload: {
        type: 'object',
        required: ['error'],
        properties: { error: { $ref: '#/components/schemas/RpcErrorPayload' } },
        additionalProperties: false,
      },
    },
  };

  const parts: Parts = { channels, operations, messages };
  for (const subject of [...RPC_SUBJECTS].sort()) {
    const entry = rpc[subject];
    if (!entry) throw new Error(`${subject} is in RPC_SUBJECTS but not in RpcMap`);
    addRequest(parts, subject, entry);
  }
  for (const subject of EVENT_SUBJECTS) {
    const payload = events[subject];
    if (!payload) throw new Error(`${subject} is in EVENT_SUBJECTS but not in EventMap`);
    addEvent(parts, subject, payload);
  }

  return {
    asyncapi: '3.0.0',
    info: { title: 'Media back-office NATS API', version: 'v1', description: DESCRIPTION },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: '127.0.0.1:4222',
        protocol: 'nats',
        description:
          "The deployment's NATS server (each app's NATS_URL; `npm start` prints its own and writes it to the data directory's embedded.json).",
      },
    },
    channels,
    operations,
    components: { schemas: definitions, messages },
  };
}

/** What a subject adds to the document: its channels, operations and messages. */
interface Parts {
  channels: Record<string, unknown>;
  operations: Record<string, unknown>;
  messages: Record<string, unknown>;
}

/** A request subject: its request and reply (or error) messages, and the app answering it. */
function addRequest(
  { channels, operations, messages }: Parts,
  subject: string,
  entry: { properties: { req: Schema; res: Schema }; description?: string },
): void {
  const id = idOf(subject);
  const app = ownerOf(subject);
  messages[`${id}Request`] = {
    name: `${id}Request`,
    title: `${subject} request`,
    ...(entry.description ? { summary: entry.description } : {}),
    headers: REQUEST_HEADERS,
    payload: entry.properties.req,
  };
  messages[`${id}Reply`] = { name: `${id}Reply`, title: `${subject} reply`, payload: entry.properties.res };
  channels[id] = {
    address: subject,
    description: `Requests answered by ${app} (queue group \`${app}\`).`,
    messages: { request: { $ref: `#/components/messages/${id}Request` } },
  };
  channels[`${id}Reply`] = {
    // The requester's own inbox, named in each request.
    address: null,
    description: `The reply to a ${subject} request, on the reply subject the request named.`,
    messages: {
      reply: { $ref: `#/components/messages/${id}Reply` },
      error: { $ref: '#/components/messages/RpcError' },
    },
  };
  operations[id] = {
    action: 'receive',
    title: `${app} answers ${subject}`,
    channel: { $ref: `#/channels/${id}` },
    messages: [{ $ref: `#/channels/${id}/messages/request` }],
    reply: {
      channel: { $ref: `#/channels/${id}Reply` },
      messages: [
        { $ref: `#/channels/${id}Reply/messages/reply` },
        { $ref: `#/channels/${id}Reply/messages/error` },
      ],
    },
    bindings: { nats: { queue: app, bindingVersion: '0.1.0' } },
    tags: [{ name: app }],
  };
}

/** An event subject: its message (the outbox envelope around the payload) and its publisher. */
function addEvent({ channels, operations, messages }: Parts, subject: string, payload: Schema): void {
  const id = idOf(subject);
  const app = ownerOf(subject);
  messages[`${id}Event`] = {
    name: `${id}Event`,
    title: subject,
    summary: `Published by ${app} through its outbox, kept in the ${EVENTS_STREAM} stream.`,
    payload: {
      type: 'object',
      required: ['id', 'subject', 'occurred_at', 'data', 'meta'],
      properties: {
        id: { type: 'string', description: 'The event id: consumers are idempotent on it' },
        subject: { type: 'string', const: subject },
        occurred_at: { type: 'string', format: 'date-time' },
        data: payload,
        meta: { $ref: '#/components/schemas/MessageMeta' },
      },
      additionalProperties: false,
    },
  };
  channels[id] = {
    address: subject,
    description: `A JetStream event of the ${EVENTS_STREAM} stream, published by ${app}.`,
    messages: { event: { $ref: `#/components/messages/${id}Event` } },
  };
  operations[`${id}Publish`] = {
    action: 'send',
    title: `${app} publishes ${subject}`,
    channel: { $ref: `#/channels/${id}` },
    messages: [{ $ref: `#/channels/${id}/messages/event` }],
    tags: [{ name: app }],
  };
}
