import type { TokenVersionsReply, UserTokensRevokedEvent } from '@media/contracts';
import type { TokenVersions } from './token-versions';

/** How a feed reaches acl: over NATS, or the in-process bus of the embedded default. */
export interface TokenVersionSource {
  /**
   * Starts delivering `acl.user.tokens-revoked` to `onRevoked`; `onResumed` is called after the
   * connection came back (events may have been missed meanwhile).
   */
  listen(onRevoked: (event: UserTokensRevokedEvent) => void, onResumed: () => void): Promise<void>;
  /** `acl.users.token-versions`; throws when acl cannot be asked. */
  ask(since: string | undefined): Promise<TokenVersionsReply>;
  close(): Promise<void>;
}

export interface TokenVersionFeedOptions {
  /** How far back a version matters: the longest token lifetime plus the clock skew (ms). */
  lookbackMs: number;
  /** How often acl is asked again, a net for an event lost on the way (ms). */
  resyncMs?: number;
  /** Wait between attempts while acl has not answered (ms). */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Commits that were under way when acl read the versions carry an earlier `token_version_raised_at`
 * than its clock: the next question reaches this far before the last answer.
 */
const OVERLAP_MS = 60_000;

/** An event's data, checked: a malformed one is ignored (acl is the only publisher). */
export function revokedEventData(value: unknown): UserTokensRevokedEvent | undefined {
  const data = (value as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const { user_id, ver } = data as Partial<UserTokensRevokedEvent>;
  return typeof user_id === 'string' && Number.isInteger(ver) ? { user_id, ver: ver as number } : undefined;
}

/**
 * Keeps a TokenVersions current: events as they come; at start, after a reconnect and every
 * `resyncMs`, the versions raised since the last answer (at start, within a token's lifetime).
 * While acl or NATS is down, what is known stays known.
 */
export class TokenVersionFeed {
  private lastAnswerAt?: number;
  private timer?: NodeJS.Timeout;
  private asking?: Promise<void>;
  private stopped = false;
  private readonly resyncMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly store: TokenVersions,
    private readonly source: TokenVersionSource,
    private readonly options: TokenVersionFeedOptions,
  ) {
    this.resyncMs = options.resyncMs ?? 30_000;
    this.retryMs = options.retryMs ?? 1_000;
  }

  /** Listens first, then asks (no gap between the answer and the events); does not wait for acl. */
  async start(): Promise<void> {
    await this.source.listen(
      (event) => this.store.raise(event.user_id, event.ver),
      () => void this.sync(),
    );
    void this.sync();
  }

  /** Asks acl now (one question at a time); the next one is scheduled either way. */
  sync(): Promise<void> {
    this.asking ??= this.ask().finally(() => {
      this.asking = undefined;
      this.schedule();
    });
    return this.asking;
  }

  private async ask(): Promise<void> {
    if (this.stopped) return;
    const since = new Date(
      this.lastAnswerAt === undefined ? Date.now() - this.options.lookbackMs : this.lastAnswerAt - OVERLAP_MS,
    ).toISOString();
    try {
      const reply = await this.source.ask(since);
      this.store.learned(reply.versions);
      const at = Date.parse(reply.at);
      this.lastAnswerAt = Number.isFinite(at) ? at : Date.now();
      this.store.prune();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sync(), this.store.isSynced ? this.resyncMs : this.retryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.source.close();
  }
}
