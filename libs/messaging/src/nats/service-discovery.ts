import { nuid, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { AppMetrics } from '@media/core';

/**
 * NATS's service discovery (the micro protocol behind `nats micro list|info|stats`): each app
 * instance answers `$SRV.PING`, `$SRV.INFO` and `$SRV.STATS` (alone, `.<name>` and
 * `.<name>.<id>`) as one service named after the app, listing its responders with their
 * subjects and queue group. Only these subjects are added: how requests are answered does not
 * change. The statistics are the ones the app's metrics already keep (requests and errors by
 * subject, and their handling time).
 */

/** A NATS responder: the subject of a `@MessagePattern` method and the method answering it. */
export interface RpcEndpoint {
  subject: string;
  /** `<Class>.<method>`, e.g. `UsersRpc.getMany`. */
  handler: string;
}

/** The version every instance reports (the micro protocol wants SemVer). */
export const SERVICE_VERSION = '1.0.0';

export interface ServiceIdentity {
  /** The app's name: the service's name and the endpoints' queue group. */
  name: string;
  id: string;
  version: string;
  metadata: Record<string, string>;
}

interface EndpointStats {
  num_requests: number;
  num_errors: number;
  last_error: string;
  /** Nanoseconds, as the protocol counts. */
  processing_time: number;
  average_processing_time: number;
}

/** Requests, errors and handling time by subject, from `nats_server_request_duration_seconds`. */
export async function endpointStats(metrics: AppMetrics): Promise<Map<string, EndpointStats>> {
  const stats = new Map<string, EndpointStats>();
  const { values } = await metrics.rpcServer.get();
  for (const { metricName, labels, value } of values) {
    const subject = String(labels.subject);
    const entry = stats.get(subject) ?? {
      num_requests: 0,
      num_errors: 0,
      last_error: '',
      processing_time: 0,
      average_processing_time: 0,
    };
    if (metricName?.endsWith('_count')) {
      entry.num_requests += value;
      if (labels.outcome === 'error') entry.num_errors += value;
    } else if (metricName?.endsWith('_sum')) {
      entry.processing_time += Math.round(value * 1e9);
    }
    stats.set(subject, entry);
  }
  for (const entry of stats.values()) {
    entry.average_processing_time =
      entry.num_requests === 0 ? 0 : Math.round(entry.processing_time / entry.num_requests);
  }
  return stats;
}

/** The protocol's answers: ping, info and stats of this instance. */
export function serviceAnswers(
  identity: ServiceIdentity,
  endpoints: RpcEndpoint[],
  stats: () => Promise<Map<string, EndpointStats>>,
  started: Date,
): Record<'PING' | 'INFO' | 'STATS', () => Promise<object>> {
  const base = {
    name: identity.name,
    id: identity.id,
    version: identity.version,
    metadata: identity.metadata,
  };
  const listed = [...endpoints]
    .sort((a, b) => a.subject.localeCompare(b.subject))
    .map((endpoint) => ({
      name: endpoint.subject,
      subject: endpoint.subject,
      queue_group: identity.name,
      metadata: { handler: endpoint.handler },
    }));
  return {
    PING: () => Promise.resolve({ type: 'io.nats.micro.v1.ping_response', ...base }),
    INFO: () =>
      Promise.resolve({
        type: 'io.nats.micro.v1.info_response',
        ...base,
        description: `The ${identity.name} app's NATS responders`,
        endpoints: listed,
      }),
    STATS: async () => {
      const counted = await stats();
      return {
        type: 'io.nats.micro.v1.stats_response',
        ...base,
        started: started.toISOString(),
        endpoints: listed.map(({ metadata: _metadata, ...endpoint }) => ({
          ...endpoint,
          ...(counted.get(endpoint.subject) ?? {
            num_requests: 0,
            num_errors: 0,
            last_error: '',
            processing_time: 0,
            average_processing_time: 0,
          }),
        })),
      };
    },
  };
}

/**
 * Subscribes the discovery subjects on `nc` (the app's listener connection, so they go when it
 * drains). Every instance answers: no queue group, as the protocol wants.
 */
export function registerService(
  nc: NatsConnection,
  app: string,
  endpoints: RpcEndpoint[],
  metrics: AppMetrics,
): { id: string; subscriptions: Subscription[] } {
  const identity: ServiceIdentity = { name: app, id: nuid.next(), version: SERVICE_VERSION, metadata: {} };
  const answers = serviceAnswers(identity, endpoints, () => endpointStats(metrics), new Date());
  const subscriptions: Subscription[] = [];
  for (const [verb, answer] of Object.entries(answers)) {
    for (const subject of [`$SRV.${verb}`, `$SRV.${verb}.${app}`, `$SRV.${verb}.${app}.${identity.id}`]) {
      subscriptions.push(
        nc.subscribe(subject, {
          callback: (error, message) => {
            if (error || !message.reply) return;
            void answer().then(
              (body) => message.respond(JSON.stringify(body)),
              () => undefined,
            );
          },
        }),
      );
    }
  }
  return { id: identity.id, subscriptions };
}
