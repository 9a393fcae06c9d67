/**
 * `@media/messaging`: between apps: NATS requests (RpcClient), the outbox and the event bus,
 * event consumers (@OnEvent), periodic jobs.
 */
export type { RpcEndpoint } from './nats/service-discovery';

// Between apps: NATS requests and events
export { RpcClient } from './nats/rpc-client';
export { isInProcess } from './nats/transport';
export { natsConnectionOptions } from './nats/credentials';
export { OnEvent, OnEvents } from './outbox/on-event';

// Periodic work
export { ClaimLoop, leaseFree, releaseLeases, type ClaimRound, type LeaseColumns } from './jobs/claim-loop';
export { GroupCommit } from './jobs/group-commit';
export { inBatches } from './jobs/in-batches';
export { PeriodicJob } from './jobs/periodic-job';
export { periodicJobProvider } from './jobs/periodic-job.provider';
export { Outbox } from './outbox/outbox';

// Used by the libraries above this one
export { busListenerOptions, createBusClient, NATS_CLIENT } from './nats/transport';
export { EventBus } from './outbox/event-bus';
export { NS } from './outbox/event-delivery';
/** @public For the platform's integration tests (a consumer's durable name). */
export { durableName } from './outbox/event-delivery';
export { inProcessBus, InProcessClient } from './nats/in-process';
export { subscribeInProcess } from './outbox/in-process-events';
export { registerService } from './nats/service-discovery';
export {
  EVENT_HANDLER_NAMES,
  EventConsumers,
  isEventHandler,
  type NamedEventHandlers,
} from './outbox/on-event';
export { RpcContextInterceptor } from './nats/rpc-context.interceptor';
export { clusterSpread, plannedMoveUnderWay } from './nats/cluster-spread';
export { CreateOutbox1700000000000 } from './outbox/outbox.migration';
export { CreateDeadLetters1700000000900 } from './outbox/dead-letters.migration';
export { DeadLetter, OutboxMessage, ProcessedEvent } from './outbox/outbox.entity';

/** @public For the platform's integration tests (a spread of their own, a consumer's durable name). */
export { ClusterSpread } from './nats/cluster-spread';
