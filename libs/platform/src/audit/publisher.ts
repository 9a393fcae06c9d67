import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
} from '@nats-io/jetstream';
import { AUDIT_STREAM, auditMessageId, auditSubject } from '@media/contracts';
import type { DataSource } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig, APP_NAME } from '@media/kernel';
import { PeriodicJob, isInProcess, EventBus, NS } from '@media/messaging';
import { auditEntryOf, type AuditEntry, type AuditEntryRow } from '@media/core';

const BATCH = 200;
/** Sealed entries kept for the publisher at most (two sealer passes); more are read back instead. */
const HANDED_MAX = 1_000;

/**
 * The next sealed entries the stream does not have yet: after the resume point $1 (read from
 * `audit_published` by the caller), $2 at most. The resume point is a value, so it bounds the
 * index range on seq: joined as a table it only filtered, and every pass read the chain from its
 * first entry (a pass every AUDIT_SEAL_INTERVAL under load, each longer as the chain grew).
 */
export const UNPUBLISHED_ENTRIES = `SELECT e.* FROM audit_entries e
  WHERE e.seq IS NOT NULL AND e.seq > $1
  ORDER BY e.seq LIMIT $2`;
/**
 * Entries this process's sealer just sealed, kept so that the publisher need not read back what
 * was just written (the rows, their JSON and their dates parsed again: a tenth of what the trail
 * cost a claim in assignment, bench/audit-write.mjs). Only a run that follows the stream's resume
 * point without a gap is taken from here; anything else (another replica sealed in between, more
 * than HANDED_MAX waiting while NATS is down, a restart) is read from the table as before.
 */
export class SealedEntries {
  private entries: AuditEntry[] = [];

  constructor(private readonly max: number) {}

  /** Sealed and committed, in seq order. Dropped when too many wait already (read back later). */
  add(sealed: readonly AuditEntry[]): void {
    if (this.entries.length + sealed.length <= this.max) this.entries.push(...sealed);
  }

  /**
   * The entries right after `resume`, seq `resume + 1`, `resume + 2`, … without a gap, `limit` at
   * most (none when the first kept one is not `resume + 1`); those at or before `resume` are forgotten.
   */
  after(resume: number, limit: number): AuditEntry[] {
    const first = this.entries.findIndex((entry) => entry.seq > resume);
    this.entries = first < 0 ? [] : this.entries.slice(first);
    let run = 0;
    while (run < limit && run < this.entries.length && this.entries[run].seq === resume + 1 + run) run++;
    return this.entries.slice(0, run);
  }
}

/**
 * A message's body at most (a run's JSON; an entry larger than this alone is one message): a
 * quarter of NATS's default max_payload (1 MiB), or that of the server, less room for headers,
 * when it is set lower.
 */
export const MAX_RUN_BYTES = 256 * 1024;
const HEADERS_ROOM = 4 * 1024;

/** A run of consecutive entries as one AUDIT message. */
export interface AuditRun {
  first: number;
  last: number;
  entries: number;
  body: string;
}

/**
 * `entries` (consecutive, in seq order) as the messages that carry them: JSON arrays of §8.1
 * objects, each body `maxBytes` at most unless one entry alone is larger.
 */
export function auditRuns(entries: readonly AuditEntry[], maxBytes = MAX_RUN_BYTES): AuditRun[] {
  const runs: AuditRun[] = [];
  let from = 0; // the open run's first entry
  let texts: string[] = [];
  let bytes = 2; // its brackets
  const close = (to: number) => {
    const body = `[${texts.join(',')}]`;
    runs.push({ first: entries[from].seq, last: entries[to - 1].seq, entries: to - from, body });
    [from, texts, bytes] = [to, [], 2];
  };
  entries.forEach((entry, i) => {
    const text = JSON.stringify(entry);
    const size = Buffer.byteLength(text) + 1; // and its comma
    if (i > from && bytes + size > maxBytes) close(i);
    texts.push(text);
    bytes += size;
  });
  if (entries.length > from) close(entries.length);
  return runs;
}

/** The pause after a failed publish (NATS down): sealing goes on meanwhile. */
const RETRY_MS = 2_000;
/** The pass every so often even without a nudge from the sealer (another replica sealed). */
const EVERY_MS = 1_000;

/**
 * Publishes every sealed entry to the JetStream stream AUDIT, in seq order, one replica at a
 * time: a pass's entries as runs (subject `audit.<app>`, a JSON array of §8.1 objects, message id
 * `<app>:<first seq>-<last seq>`), one message per run rather than per entry, which is much of
 * what publishing and acl's copy cost per entry (NATS's own work per message, on both sides and
 * in the server, and acl's ack of each: bench/audit-write.mjs). `audit_published`
 * holds how far the stream has them; it moves only after JetStream acknowledged, so a NATS outage
 * loses nothing (the next pass resumes there). What is sent again after a failure (a run refused
 * or unanswered, perhaps stored all the same, or a crash between the ack and the move) is the same
 * run, which JetStream's de-duplication on the message id absorbs, or runs cut differently, whose
 * entries acl's copy already holds are ignored there (`(app, seq)` is unique). Sealing never
 * waits on this.
 * With in-process NATS (`NATS_URL=inproc`) there is no stream and nothing is published.
 */
@Injectable()
export class AuditPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditPublisher');
  private readonly job: PeriodicJob<number>;
  private stream?: Promise<JetStreamClient>;
  private failing = false;
  private readonly handed = new SealedEntries(HANDED_MAX);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_NAME) private readonly app: string,
    @InjectConfig() private readonly config: PlatformConfig,
    @Inject(EventBus) private readonly bus: EventBus,
  ) {
    this.job = new PeriodicJob({
      name: 'AuditPublisher',
      every: EVERY_MS,
      retryAfter: RETRY_MS,
      after: (published) => (published === BATCH ? 0 : EVERY_MS),
      exclusive: { dataSource, lock: `audit-publisher:${app}` },
      run: () => this.publishBatch(),
    });
  }

  onApplicationBootstrap(): void {
    if (!isInProcess(this.config.nats)) this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** This process sealed (and committed) `entries`: publish them soon, from memory if they are next. */
  sealed(entries: readonly AuditEntry[]): void {
    if (isInProcess(this.config.nats)) return;
    this.handed.add(entries);
    this.job.soon(0);
  }

  /** Publishes what is sealed and not yet published (tests flush with it). */
  async publish(): Promise<number> {
    if (isInProcess(this.config.nats)) return 0;
    let total = 0;
    for (;;) {
      const published = (await this.job.runOnce()) ?? 0;
      total += published;
      if (published < BATCH) return total;
    }
  }

  /** The next entries the stream does not have: handed by the sealer when they are next, else read. */
  private async unpublished(): Promise<AuditEntry[]> {
    const [{ seq }]: { seq: string }[] = await this.dataSource.query(`SELECT seq FROM audit_published`);
    const resume = Number(seq);
    const handed = this.handed.after(resume, BATCH);
    if (handed.length > 0) return handed;
    const rows: AuditEntryRow[] = await this.dataSource.query(UNPUBLISHED_ENTRIES, [resume, BATCH]);
    return rows.map(auditEntryOf);
  }

  private async publishBatch(): Promise<number> {
    const entries = await this.unpublished();
    if (entries.length === 0) return 0;
    let published = 0;
    try {
      const js = await this.jetStream();
      const subject = auditSubject(this.app);
      // Every run in flight at once on the one connection, which JetStream stores in the order
      // sent; what is published is the entries of the acknowledged runs from the first.
      const { info } = await this.bus.natsConnection();
      const runs = auditRuns(
        entries,
        Math.min(MAX_RUN_BYTES, (info?.max_payload ?? Infinity) - HEADERS_ROOM),
      );
      const acks = await Promise.allSettled(
        runs.map((run) =>
          js.publish(subject, run.body, {
            msgID: auditMessageId(this.app, run.first, run.last),
            timeout: 2_000,
          }),
        ),
      );
      const failed = acks.findIndex((ack) => ack.status === 'rejected');
      const acked = failed < 0 ? runs : runs.slice(0, failed);
      published = acked.reduce((sum, run) => sum + run.entries, 0);
      if (failed >= 0) throw (acks[failed] as PromiseRejectedResult).reason;
      if (this.failing) this.logger.log('AUDIT stream reachable again; publishing resumed');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'Publishing audit entries failed; will resume from the last one published',
        );
      this.failing = true;
      this.stream = undefined;
    }
    if (published > 0)
      await this.dataSource.query(`UPDATE audit_published SET seq = $1 WHERE seq < $1`, [
        entries[published - 1].seq,
      ]);
    if (published < entries.length) throw new Error('audit publish interrupted');
    return published;
  }

  private jetStream(): Promise<JetStreamClient> {
    this.stream ??= this.createStream().then(async () => jetstream(await this.bus.natsConnection()));
    return this.stream;
  }

  /** Creates the AUDIT stream (every app's `audit.<app>`), or leaves the existing one as it is. */
  private async createStream(): Promise<void> {
    const jsm = await jetstreamManager(await this.bus.natsConnection());
    try {
      await jsm.streams.info(AUDIT_STREAM);
      return;
    } catch {
      // Not there yet: created below.
    }
    try {
      await jsm.streams.add({
        name: AUDIT_STREAM,
        subjects: ['audit.>'],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        num_replicas: this.config.events.replicas,
        max_age: this.config.events.maxAge * NS,
        max_bytes: this.config.events.maxBytes,
        duplicate_window: this.config.events.duplicateWindow * NS,
        discard: DiscardPolicy.Old,
      });
    } catch (error) {
      // Another app created it meanwhile.
      await jsm.streams.info(AUDIT_STREAM).catch(() => {
        throw error;
      });
    }
  }
}
