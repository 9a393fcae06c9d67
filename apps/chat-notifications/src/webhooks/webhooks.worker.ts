import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import {
  ClaimLoop,
  GroupCommit,
  leaseFree,
  releaseLeases,
  type ClaimRound,
  type LeaseColumns,
} from '@media/messaging';
import { inIndexScansTransaction, InjectConfig } from '@media/kernel';
import { Agent, request } from 'undici';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { guardedLookup } from './address-policy';
import { ResolverService } from './resolver.service';
import { SecretBox, signatureHeader } from './secret-box';
import { WebhookAlertsService } from './webhook-alerts.service';

/** A message's lease: the replica sending it, until when. */
const LEASE: LeaseColumns = { table: 'webhook_messages', owner: 'lease_owner', until: 'lease_until' };
/**
 * Sends in flight at once per endpoint, across every replica: enough to keep a receiver on the
 * same network busy while each send's record waits for its batch (bench/webhooks.mjs).
 */
export const ENDPOINT_CONCURRENCY = 64;
/**
 * The share of an endpoint that is failing (its last delivery failed): a hung one holds at most
 * these after its first timeout, so a handful of hung endpoints cannot fill a replica's sends.
 */
export const FAILING_ENDPOINT_CONCURRENCY = 4;
/** Sends in flight at once on one replica. */
export const REPLICA_CONCURRENCY = 1024;
/** What an attempt keeps of the answer. */
const RESPONSE_KEPT = 1024;
/** A lease outlives the send it covers (WEBHOOK_TIMEOUT) by as much again plus this, to record it. */
const LEASE_MARGIN_MS = 5_000;

/**
 * A round's claim ($1 the replica, $2 the lease in ms, $3 an endpoint's share, $4 the replica's
 * room, $5 a failing endpoint's share): for each enabled endpoint, its due messages whose lease is
 * free, oldest due first, as many as its share leaves beside the leases still running; leased to
 * the replica and returned with what their sends need.
 */
export const CLAIM_DUE = `WITH picked AS (
     SELECT c.id FROM webhook_endpoints e
     CROSS JOIN LATERAL (
       SELECT x.id FROM webhook_messages x
        WHERE x.endpoint_id = e.id AND x.status = 'pending' AND x.next_attempt_at <= clock_timestamp()
          AND ${leaseFree(LEASE, 'x')}
        ORDER BY x.next_attempt_at, x.created_at
        LIMIT GREATEST(0, CASE WHEN e.failing_since IS NULL THEN $3::int ELSE $5::int END
                          - (SELECT count(*) FROM webhook_messages b
                                 WHERE b.endpoint_id = e.id AND b.lease_until >= clock_timestamp()))
        FOR UPDATE SKIP LOCKED
     ) c
     WHERE NOT e.disabled
     LIMIT $4
   ), leased AS (
     UPDATE webhook_messages m
        SET lease_owner = $1, lease_until = clock_timestamp() + $2 * interval '1 millisecond'
       FROM picked WHERE m.id = picked.id
     RETURNING m.id, m.endpoint_id, m.event_id, m.cycle_attempts
   )
   SELECT l.id, l.endpoint_id, l.event_id, l.cycle_attempts, e.url, e.secret_sealed,
          CASE WHEN e.previous_secret_until > clock_timestamp() THEN e.previous_secret_sealed END
            AS previous_secret_sealed,
          ev.body
     FROM leased l
     JOIN webhook_endpoints e ON e.id = l.endpoint_id
     JOIN webhook_events ev ON ev.id = l.event_id`;

/** CLAIM_DUE's parameters for a round of replica `owner` with `room` sends free, leasing for `leaseMs`. */
export const claimDueParams = (owner: string, leaseMs: number, room: number): unknown[] => [
  owner,
  leaseMs,
  ENDPOINT_CONCURRENCY,
  room,
  FAILING_ENDPOINT_CONCURRENCY,
];

/** One claimed message with what its send needs. */
interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  body: string;
  cycle_attempts: number;
}

/** What one attempt came to. */
interface Outcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
}

/** An attempt to write down. */
interface Recorded {
  message: Claimed;
  outcome: Outcome;
}

/**
 * Delivers webhook messages (docs/api/webhooks.md). A round claims due messages with a lease (one
 * statement, in a short transaction committed at once, `FOR UPDATE SKIP LOCKED`, so replicas take
 * different rows), at most ENDPOINT_CONCURRENCY in flight per endpoint across the replicas
 * (FAILING_ENDPOINT_CONCURRENCY while it fails), so a slow or failing endpoint only ever holds its
 * own share; each send runs outside any transaction and its attempt is recorded (in a batch, see
 * `records`) only while the lease is still this replica's. A replica that dies leaves its leases
 * to expire; another one then sends those messages again (at least once, with the same
 * `webhook-id`). A send starts right after its claim, with the lease longer than WEBHOOK_TIMEOUT,
 * so two replicas never send the same attempt.
 */
@Injectable()
export class WebhooksWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** This replica's name on its leases. */
  readonly owner = randomUUID();
  private readonly box?: SecretBox;
  private readonly agent: Agent;
  private readonly inFlight = new Map<string, AbortController>();
  /**
   * Outcomes are written a batch at a time, deliveries apart from failures: a failure locks its
   * endpoint's row (to count towards disabling it), and a burst of them from a hung endpoint
   * must not hold up the record, and so the next send, of another endpoint's deliveries.
   */
  private readonly records = {
    delivered: new GroupCommit((items: Recorded[]) => this.recordMany(items)),
    failed: new GroupCommit((items: Recorded[]) => this.recordMany(items)),
  };
  private stopped = false;
  private readonly loop = new ClaimLoop({
    name: 'Webhooks',
    actor: 'chat-notifications:webhooks',
    nudge: 20,
    round: () => this.claimRound(),
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ResolverService) private readonly resolver: ResolverService,
    @Inject(WebhookAlertsService) private readonly alerts: WebhookAlertsService,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {
    const { secretsKey, timeout } = config.webhooks;
    if (secretsKey) this.box = new SecretBox(secretsKey);
    this.agent = new Agent({
      connect: { timeout, lookup: guardedLookup(config.webhooks, (host) => this.resolver.resolve(host)) },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  onApplicationBootstrap(): void {
    // Without the key no secret can be opened: nothing is sent (creating endpoints answers 503).
    if (this.box) this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    // Sends still running are cut short and their leases given back, so another replica sends
    // them at once rather than after the lease (the receiver may see that delivery twice).
    const ids = [...this.inFlight.keys()];
    for (const controller of this.inFlight.values()) controller.abort();
    await releaseLeases(this.dataSource, LEASE, ids, this.owner).catch(() => undefined);
    await this.agent.close().catch(() => undefined);
  }

  /** New messages were queued in a transaction about to commit: look soon, and briefly keep looking. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Claims what is due (within each endpoint's share) and starts sending it; does not wait for the sends. */
  async claimRound(): Promise<ClaimRound> {
    const room = REPLICA_CONCURRENCY - this.inFlight.size;
    if (this.stopped || room <= 0) return { claimed: 0, full: false };
    const lease = 2 * this.config.webhooks.timeout + LEASE_MARGIN_MS;
    // Through webhook_messages_due_idx walked in order (INDEX_SCANS_ONLY): each message sent
    // leaves two old versions in it until vacuum (leased, then marked).
    const claimed = await inIndexScansTransaction(
      this.dataSource,
      (manager) => manager.query(CLAIM_DUE, claimDueParams(this.owner, lease, room)) as Promise<Claimed[]>,
    );
    for (const message of claimed) void this.deliver(message);
    return { claimed: claimed.length, full: claimed.length === room };
  }

  /** Sends one message and records the attempt; any failure here is logged, never thrown. */
  private async deliver(message: Claimed): Promise<void> {
    const controller = new AbortController();
    this.inFlight.set(message.id, controller);
    try {
      const outcome = await this.send(message, controller.signal);
      if (this.stopped && controller.signal.aborted) return;
      const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      await this.records[delivered ? 'delivered' : 'failed'].add({ message, outcome });
    } catch (error) {
      this.logger.warn(
        { endpoint_id: message.endpoint_id, event_id: message.event_id, err: (error as Error).message },
        'Recording a webhook attempt failed; the message is sent again after its lease',
      );
    } finally {
      this.inFlight.delete(message.id);
      if (!this.stopped) this.loop.soon(0);
    }
  }

  private async send(message: Claimed, signal: AbortSignal): Promise<Outcome> {
    const box = this.box!;
    const secrets = [box.open(message.secret_sealed, message.endpoint_id)];
    if (message.previous_secret_sealed)
      secrets.push(box.open(message.previous_secret_sealed, message.endpoint_id));
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await request(message.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.config.webhooks.timeout)]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'media-backoffice-webhooks/1',
          'webhook-id': message.event_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, message.event_id, timestamp, message.body),
        },
        body: message.body,
      });
      const responseBody = await firstBytes(response.body, RESPONSE_KEPT);
      return { statusCode: response.statusCode, durationMs: elapsed(), error: null, responseBody };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describe(error), responseBody: '' };
    }
  }

  /**
   * The attempts, then their messages (delivered, retried after the schedule's next wait, or
   * failed) and endpoints (a 410 disables one; failing for WEBHOOK_DISABLE_AFTER disables it and
   * tells the admins), in one statement for every outcome that came in while the previous
   * statement ran (GroupCommit), each only while its lease is still this replica's. An endpoint
   * row is locked only when it changes (a failure, or the first success after failures), in id
   * order, so a burst of successes never waits on another endpoint's failures.
   */
  private async recordMany(items: Recorded[]): Promise<void> {
    const { retrySchedule, disableAfter } = this.config.webhooks;
    const rows = items.map(({ message, outcome }) => {
      const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const cycle = message.cycle_attempts + 1;
      const wait = retrySchedule[cycle - 1];
      return {
        ok,
        cycle,
        wait: wait ?? 0,
        status: ok ? 'delivered' : wait === undefined ? 'failed' : 'pending',
      };
    });
    const column = <T>(pick: (row: (typeof rows)[number], item: (typeof items)[number]) => T) =>
      rows.map((row, i) => pick(row, items[i]));
    const disabled = (await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM unnest($2::uuid[], $3::text[], $4::int[], $5::int[], $6::int[], $7::text[], $8::text[],
                              $9::bigint[])
           AS t(id, status, cycle, status_code, duration_ms, error, response_body, wait_ms)
       ), mine AS (
         UPDATE webhook_messages m
            SET status = i.status, attempts = m.attempts + 1, cycle_attempts = i.cycle,
                last_status_code = i.status_code,
                next_attempt_at = CASE WHEN i.status = 'pending'
                                       THEN clock_timestamp() + i.wait_ms * interval '1 millisecond' END,
                lease_owner = NULL, lease_until = NULL, updated_at = clock_timestamp()
           FROM input i
          WHERE m.id = i.id AND m.lease_owner = $1
         RETURNING m.id, m.endpoint_id, i.status = 'delivered' AS ok, COALESCE(i.status_code = 410, false) AS gone
       ), attempts AS (
         INSERT INTO webhook_attempts (message_id, status_code, duration_ms, error, response_body)
         SELECT i.id, i.status_code, i.duration_ms, i.error, i.response_body FROM input i JOIN mine USING (id)
       ), outcome AS (
         SELECT endpoint_id, bool_or(ok) AS ok, bool_or(gone) AS gone FROM mine GROUP BY endpoint_id
       ), old AS (
         SELECT e.id, e.url, e.disabled, o.ok AND NOT o.gone AS ok, o.gone,
                COALESCE(e.failing_since, clock_timestamp()) AS since
           FROM webhook_endpoints e JOIN outcome o ON o.endpoint_id = e.id
          WHERE NOT o.ok OR o.gone OR e.failing_since IS NOT NULL
          ORDER BY e.id
            FOR UPDATE OF e
       ), next AS (
         SELECT old.*, NOT old.ok AND (old.gone OR old.since <= clock_timestamp() - $10 * interval '1 millisecond')
                         AS off
           FROM old
       ), changed AS (
         UPDATE webhook_endpoints e
            SET failing_since = CASE WHEN next.ok THEN NULL ELSE next.since END,
                disabled = e.disabled OR next.off,
                disabled_reason = CASE WHEN NOT next.disabled AND next.off
                                       THEN CASE WHEN next.gone THEN $11 ELSE $12 END
                                       ELSE e.disabled_reason END,
                updated_at = CASE WHEN next.ok THEN e.updated_at ELSE clock_timestamp() END
           FROM next
          WHERE e.id = next.id
         RETURNING e.id, next.url, NOT next.disabled AND next.off AS newly, e.disabled_reason AS reason
       )
       SELECT id, url, reason FROM changed WHERE newly`,
      [
        this.owner,
        column((_, { message }) => message.id),
        column((row) => row.status),
        column((row) => row.cycle),
        column((_, { outcome }) => outcome.statusCode),
        column((_, { outcome }) => outcome.durationMs),
        column((_, { outcome }) => outcome.error),
        column((_, { outcome }) => outcome.responseBody),
        column((row) => row.wait),
        disableAfter,
        'The endpoint answered 410 Gone',
        `Every delivery failed for ${Math.round(disableAfter / 1000)} s`,
      ],
    )) as { id: string; url: string; reason: string }[];
    for (const endpoint of disabled)
      await this.alerts.endpointDisabled(endpoint.id, endpoint.url, endpoint.reason);
  }
}

/** The first `limit` bytes of a body as text; the rest is read and dropped. */
async function firstBytes(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) {
      kept.push(chunk.subarray(0, limit - size));
      size += Math.min(chunk.length, limit - size);
    }
  }
  return Buffer.concat(kept).toString('utf8');
}

function describe(error: unknown): string {
  const { name, message, code, cause } = error as {
    name?: string;
    message?: string;
    code?: string;
    cause?: unknown;
  };
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout: no answer within WEBHOOK_TIMEOUT';
  if (cause) return describe(cause);
  return code ? `${code}: ${message}` : (message ?? String(error));
}
