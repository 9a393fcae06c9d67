import type { AccessTokenClaims, TokenVersion } from '@media/contracts';
import { Unauthenticated, UpstreamUnavailable } from '../errors/domain-errors';

/** Called when a user's version rises: sockets opened with an older token close (4401). */
export type RevocationListener = (userId: string, ver: number) => void;

interface Known {
  ver: number;
  /** When this process learned it (ms): the entry can go once every older token has expired. */
  learnedAt: number;
}

/** The close code of a websocket whose token was revoked or expired (4000 + HTTP 401). */
export const CLOSE_TOKEN_REVOKED = 4401;

export const tokenRevoked = () =>
  new Unauthenticated('token_revoked', 'The access token has been revoked; sign in again.');

/** The `ver` a token carries; a token issued before versions existed counts as 0. */
export function tokenVersionOf(claims: Pick<AccessTokenClaims, 'ver'>): number {
  return typeof claims.ver === 'number' && Number.isInteger(claims.ver) ? claims.ver : 0;
}

/**
 * The latest token version this process knows for each user (docs/api/acl.md, revocation): an
 * access token whose `ver` is below its user's is refused with 401 `token_revoked`. The check is
 * one Map lookup per request. Versions only rise; they come from acl's `acl.user.tokens-revoked`
 * events and from asking acl (`acl.users.token-versions`) at start and after missed events
 * (TokenVersionFeed).
 *
 * Until acl has answered once, this process cannot know what was revoked before it started:
 * a token issued before then is answered 503 (acl unreachable: try again), one issued after is
 * trusted, since any later revocation reaches this process as an event.
 */
export class TokenVersions {
  private readonly latest = new Map<string, Known>();
  private readonly listeners = new Set<RevocationListener>();
  private synced = false;

  /**
   * @param startedAt when this process started listening (ms); tokens issued before it need a sync
   * @param retainMs how long a learned version matters: the longest token lifetime plus the skew
   */
  constructor(
    private readonly startedAt: number = Date.now(),
    private readonly retainMs: number = 16 * 60_000,
  ) {}

  /** Throws 401 `token_revoked` for a token below its user's version, 503 while unsynced for an older token. */
  check(claims: Pick<AccessTokenClaims, 'sub' | 'ver' | 'iat'>): void {
    const known = this.latest.get(claims.sub);
    if (known !== undefined && tokenVersionOf(claims) < known.ver) throw tokenRevoked();
    // `iat` counts whole seconds: a token of the start's own second counts as issued after it.
    if (!this.synced && (typeof claims.iat !== 'number' || claims.iat < Math.floor(this.startedAt / 1000)))
      throw new UpstreamUnavailable('The token versions could not be read from acl yet; try again shortly.');
  }

  /** Whether `ver` is below the latest version known for `userId` (NATS-borne calls). */
  isRevoked(userId: string, ver: number): boolean {
    const known = this.latest.get(userId);
    return known !== undefined && ver < known.ver;
  }

  /** The latest version known for `userId` (0 when none). */
  versionOf(userId: string): number {
    return this.latest.get(userId)?.ver ?? 0;
  }

  /** Learns one version (an event); true when it raised what was known, listeners are then told. */
  raise(userId: string, ver: number, now = Date.now()): boolean {
    if (typeof userId !== 'string' || !Number.isInteger(ver)) return false;
    const known = this.latest.get(userId);
    if (known !== undefined && ver <= known.ver) return false;
    this.latest.set(userId, { ver, learnedAt: now });
    for (const listener of this.listeners) {
      try {
        listener(userId, ver);
      } catch {
        /* a listener's failure does not stop the others */
      }
    }
    return true;
  }

  /** acl's answer: the versions raised since the time asked (or all); tokens issued before start are trusted from now on. */
  learned(versions: readonly TokenVersion[], now = Date.now()): void {
    for (const { user_id, ver } of versions) this.raise(user_id, ver, now);
    this.synced = true;
  }

  get isSynced(): boolean {
    return this.synced;
  }

  /** Calls `listener` for every raise from now on; returns the function that stops it. */
  onRaised(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Forgets versions learned longer ago than a token lives: every token issued before them has
   * expired, so they can refuse nothing any more. Keeps the map bounded by recent revocations.
   */
  prune(now = Date.now()): void {
    for (const [userId, known] of this.latest)
      if (now - known.learnedAt > this.retainMs) this.latest.delete(userId);
  }

  /** How many users' versions are held (for tests and diagnostics). */
  get size(): number {
    return this.latest.size;
  }
}

let processWide: TokenVersions | undefined;

/**
 * The one store of a process whose apps talk over the in-process bus (the embedded default,
 * NATS_URL=inproc): every app's feed keeps it current and the gateway in the same process reads it.
 */
export function processTokenVersions(retainMs?: number): TokenVersions {
  processWide ??= new TokenVersions(Date.now(), retainMs);
  return processWide;
}
