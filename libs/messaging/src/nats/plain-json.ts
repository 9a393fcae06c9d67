import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type {
  ConsumerDeserializer,
  ConsumerSerializer,
  IncomingEvent,
  IncomingRequest,
  OutgoingResponse,
} from '@nestjs/microservices';
import { headers as natsHeaders, type Msg, type MsgHdrs } from '@nats-io/transport-node';
import type { RpcErrorPayload } from '@media/contracts';
import { isRpcErrorPayload } from '@media/core';
import { jsonBytesProblem, narrowWideObjects, NOT_UTF8, TOO_DEEP } from '@media/kernel';

/**
 * Any NATS client can call a responder (docs/nats.md): the apps' own requests come in Nest's
 * framing (`{pattern, data: {data, meta}, id}`) and get Nest's framed reply, as before; a plain
 * JSON request (`{"ids": [...]}` on `acl.users.get-many`, with a reply subject) is handed to the
 * same handler and answered plain JSON: the reply body alone, or on failure
 * `{"error": {status, code, detail}}` with the NATS service-error headers
 * (`Nats-Service-Error`, `Nats-Service-Error-Code`). Never silence.
 */

const logger = new Logger('Bus');

/** Ids of the plain requests, so the serializer answers them unframed. */
const PLAIN = 'plain:';
/** A plain request whose body is not JSON: routed to no handler, answered 400. */
const NOT_JSON = 'plain-not-json:';
const NOT_JSON_PATTERN = '\u0000not-json';
/** A request refused from its bytes (not UTF-8, nested too deep): answered 422, never parsed. */
const REFUSED = 'refused:';
const REFUSED_UTF8 = `${REFUSED}utf8:`;

/** Nest's own framing: a pattern with the request's id (a request) or its data (an event). */
function isFramed(value: unknown): value is IncomingRequest | IncomingEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const packet = value as Record<string, unknown>;
  return packet.pattern !== undefined && (typeof packet.id === 'string' || 'data' in packet);
}

/** The request metadata a plain caller may send as headers (all optional). */
function metaOf(msg: Msg): Record<string, string> {
  const meta: Record<string, string> = {};
  const read = (name: string): string | undefined => msg.headers?.get(name) || undefined;
  const requestId = read('X-Request-Id');
  const traceparent = read('traceparent');
  if (requestId) meta.request_id = requestId;
  if (traceparent) meta.traceparent = traceparent;
  return meta;
}

export class BusDeserializer implements ConsumerDeserializer {
  deserialize(msg: Msg, options?: { channel: string; replyTo?: string }): IncomingRequest | IncomingEvent {
    const channel = options?.channel ?? msg.subject;
    // The same bound as an HTTP body (docs/api/contract.md §2): a payload that is not UTF-8 or
    // nests too deep is refused before it is parsed. Nest's framing puts the data two levels down.
    const problem = msg.data.length === 0 ? undefined : jsonBytesProblem(msg.data, 2);
    if (problem) {
      if (!options?.replyTo) return { pattern: NOT_JSON_PATTERN, data: undefined };
      const id = `${problem === NOT_UTF8 ? REFUSED_UTF8 : `${REFUSED}depth:`}${randomUUID()}`;
      return { id, pattern: NOT_JSON_PATTERN, data: undefined };
    }
    let value: unknown;
    let json = true;
    try {
      // An object too wide to parse whole is cut, and refused by validation (json-bytes.ts).
      const bytes = narrowWideObjects(Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.length));
      value = msg.data.length === 0 ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
    } catch {
      json = false;
    }
    if (json && isFramed(value)) return value;
    // Without a reply subject nobody waits: an event, as Nest reads one.
    if (!options?.replyTo) return { pattern: channel, data: value };
    if (!json) return { id: `${NOT_JSON}${randomUUID()}`, pattern: NOT_JSON_PATTERN, data: undefined };
    return { id: `${PLAIN}${randomUUID()}`, pattern: channel, data: { data: value, meta: metaOf(msg) } };
  }
}

function serviceErrorHeaders(error: RpcErrorPayload): MsgHdrs {
  const headers = natsHeaders();
  headers.set('Nats-Service-Error', typeof error.detail === 'string' ? error.detail : 'Validation failed.');
  headers.set('Nats-Service-Error-Code', String(error.status));
  return headers;
}

export class BusSerializer implements ConsumerSerializer {
  serialize(packet: OutgoingResponse): { data: string; headers?: MsgHdrs } {
    const id = String(packet.id ?? '');
    if (id.startsWith(REFUSED)) {
      const msg = id.startsWith(REFUSED_UTF8) ? NOT_UTF8 : TOO_DEEP;
      const error: RpcErrorPayload = {
        status: 422,
        code: 'validation_error',
        detail: [{ loc: ['data'], msg, type: 'json_invalid' }],
      };
      return { data: JSON.stringify({ error }), headers: serviceErrorHeaders(error) };
    }
    if (id.startsWith(NOT_JSON)) {
      const error: RpcErrorPayload = {
        status: 400,
        code: 'bad_request',
        detail: 'The request body is not JSON.',
      };
      return { data: JSON.stringify({ error }), headers: serviceErrorHeaders(error) };
    }
    // Nest's framed reply, as its NatsRecordSerializer writes it (no handler here returns a NatsRecord).
    if (!id.startsWith(PLAIN)) return { data: JSON.stringify(packet) };
    if (packet.err !== undefined && packet.err !== null) {
      // The exception filter turns whatever a handler throws into a payload; anything else (Nest's
      // own "no handler" message) is a fault, said in the log as the filter says its own.
      if (!isRpcErrorPayload(packet.err))
        logger.error({ err: packet.err }, 'Unexpected error in a NATS reply');
      const error: RpcErrorPayload = isRpcErrorPayload(packet.err)
        ? { status: packet.err.status, code: packet.err.code, detail: packet.err.detail }
        : { status: 500, code: 'internal_error', detail: 'An unexpected error occurred.' };
      return { data: JSON.stringify({ error }), headers: serviceErrorHeaders(error) };
    }
    return { data: JSON.stringify(packet.response ?? null) };
  }
}
