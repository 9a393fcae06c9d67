import type { TokenVersionsReply, UserTokensRevokedEvent } from '@media/contracts';
import { Unauthenticated, UpstreamUnavailable } from '../errors/domain-errors';
import { revokedEventData, TokenVersionFeed, type TokenVersionSource } from './token-version-feed';
import { TokenVersions } from './token-versions';

const ANA = '5f0c6d1e-8a53-4a3b-9d53-0b2b1c2d3e4f';
const BEN = '7a1b2c3d-8a53-4a3b-9d53-0b2b1c2d3e4f';
const STARTED = Date.parse('2026-01-01T10:00:00Z');
const after = (seconds: number) => STARTED / 1000 + seconds;

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('TokenVersions', () => {
  let versions: TokenVersions;

  beforeEach(() => {
    versions = new TokenVersions(STARTED, 60_000);
    versions.learned([]);
  });

  it('refuses a token below its user version with 401 token_revoked, and accepts the same or a newer one', () => {
    versions.raise(ANA, 2);
    const error = refusal(() => versions.check({ sub: ANA, ver: 1, iat: after(1) }));
    expect(error).toBeInstanceOf(Unauthenticated);
    expect(error).toMatchObject({
      status: 401,
      code: 'token_revoked',
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(refusal(() => versions.check({ sub: ANA, ver: 2, iat: after(1) }))).toBeUndefined();
    expect(refusal(() => versions.check({ sub: ANA, ver: 3, iat: after(1) }))).toBeUndefined();
    expect(refusal(() => versions.check({ sub: BEN, ver: 0, iat: after(1) }))).toBeUndefined();
  });

  it('counts a token without ver as version 0', () => {
    versions.raise(ANA, 1);
    expect(refusal(() => versions.check({ sub: ANA, iat: after(1) }))).toMatchObject({
      code: 'token_revoked',
    });
  });

  it('only ever raises: an older or repeated version changes nothing and tells no listener', () => {
    const heard: [string, number][] = [];
    versions.onRaised((user, ver) => heard.push([user, ver]));
    expect(versions.raise(ANA, 3)).toBe(true);
    expect(versions.raise(ANA, 2)).toBe(false);
    expect(versions.raise(ANA, 3)).toBe(false);
    expect(versions.versionOf(ANA)).toBe(3);
    expect(heard).toEqual([[ANA, 3]]);
    expect(versions.isRevoked(ANA, 2)).toBe(true);
    expect(versions.isRevoked(ANA, 3)).toBe(false);
  });

  it('answers 503 for a token issued before start until acl answered once, and trusts newer tokens meanwhile', () => {
    const fresh = new TokenVersions(STARTED, 60_000);
    expect(refusal(() => fresh.check({ sub: ANA, ver: 0, iat: after(-5) }))).toBeInstanceOf(
      UpstreamUnavailable,
    );
    expect(refusal(() => fresh.check({ sub: ANA, ver: 0, iat: after(1) }))).toBeUndefined();
    fresh.learned([{ user_id: ANA, ver: 1 }]);
    expect(refusal(() => fresh.check({ sub: BEN, ver: 0, iat: after(-5) }))).toBeUndefined();
    expect(refusal(() => fresh.check({ sub: ANA, ver: 0, iat: after(-5) }))).toMatchObject({
      code: 'token_revoked',
    });
  });

  it('forgets a version once every token issued before it has expired', () => {
    versions.raise(ANA, 1, STARTED);
    versions.prune(STARTED + 59_000);
    expect(versions.size).toBe(1);
    versions.prune(STARTED + 61_000);
    expect(versions.size).toBe(0);
  });
});

/** A source standing in for NATS: the test delivers events and decides acl's answers. */
class StandInSource implements TokenVersionSource {
  onRevoked?: (event: UserTokensRevokedEvent) => void;
  onResumed?: () => void;
  readonly asked: (string | undefined)[] = [];
  answer: () => Promise<TokenVersionsReply> = async () => ({ versions: [], at: new Date().toISOString() });

  async listen(onRevoked: (event: UserTokensRevokedEvent) => void, onResumed: () => void) {
    this.onRevoked = onRevoked;
    this.onResumed = onResumed;
  }
  ask(since: string | undefined) {
    this.asked.push(since);
    return this.answer();
  }
  async close() {}
}

describe('TokenVersionFeed (with a stand-in source)', () => {
  it('learns the versions from acl at start, then from events', async () => {
    const versions = new TokenVersions(Date.now(), 60_000);
    const source = new StandInSource();
    source.answer = async () => ({ versions: [{ user_id: ANA, ver: 2 }], at: '2026-01-01T10:00:00.000Z' });
    const feed = new TokenVersionFeed(versions, source, { lookbackMs: 60_000 });
    await feed.start();
    await feed.sync();
    expect(versions.isSynced).toBe(true);
    expect(versions.versionOf(ANA)).toBe(2);
    source.onRevoked?.({ user_id: BEN, ver: 1 });
    expect(versions.versionOf(BEN)).toBe(1);
    // The next question reaches back before acl's last answer, for commits that were under way.
    await feed.sync();
    expect(source.asked.at(-1)).toBe('2026-01-01T09:59:00.000Z');
    await feed.stop();
  });

  it('keeps what it knows while acl cannot be asked, and stays unsynced until it can', async () => {
    const versions = new TokenVersions(Date.now(), 60_000);
    const source = new StandInSource();
    const errors: unknown[] = [];
    const feed = new TokenVersionFeed(versions, source, {
      lookbackMs: 60_000,
      onError: (e) => errors.push(e),
    });
    source.answer = () => Promise.reject(new Error('no responders'));
    await feed.start();
    source.onRevoked?.({ user_id: ANA, ver: 4 });
    await feed.sync();
    expect(errors).toHaveLength(1);
    expect(versions.isSynced).toBe(false);
    expect(versions.versionOf(ANA)).toBe(4);
    await feed.stop();
  });

  it('asks acl again when the connection comes back, for the events it may have missed', async () => {
    const versions = new TokenVersions(Date.now(), 60_000);
    const source = new StandInSource();
    const feed = new TokenVersionFeed(versions, source, { lookbackMs: 60_000 });
    await feed.start();
    await feed.sync();
    const asked = source.asked.length;
    // Raised while this process was cut off: only acl's answer can tell it.
    source.answer = async () => ({ versions: [{ user_id: BEN, ver: 7 }], at: new Date().toISOString() });
    source.onResumed?.();
    await feed.sync();
    expect(source.asked.length).toBeGreaterThan(asked);
    expect(versions.versionOf(BEN)).toBe(7);
    await feed.stop();
  });

  it('reads only well-formed event data', () => {
    expect(revokedEventData({ data: { user_id: ANA, ver: 3 } })).toEqual({ user_id: ANA, ver: 3 });
    expect(revokedEventData({ data: { user_id: ANA, ver: '3' } })).toBeUndefined();
    expect(revokedEventData({ data: null })).toBeUndefined();
    expect(revokedEventData(null)).toBeUndefined();
  });
});
