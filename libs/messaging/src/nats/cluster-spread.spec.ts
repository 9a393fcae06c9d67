import type { NatsConnection, Server } from '@nats-io/transport-node';
import { ClusterSpread } from './cluster-spread';

/** A stand-in connection: its server's INFO is set by the test, reconnect() is recorded. */
function fakeConnection() {
  const fake = {
    info: { server_id: 'A', server_name: 'a', connect_urls: ['a:4222'] } as {
      server_id: string;
      server_name: string;
      connect_urls: string[];
    },
    reconnect: jest.fn(() => Promise.resolve()),
    closed: () => new Promise<void>(() => undefined),
    /** The address the connection is on. */
    server: 'a:4222',
    getServer: () => fake.server,
    /** Messages carried so far, either way. */
    traffic: { inMsgs: 0, outMsgs: 0 },
    stats: () => fake.traffic,
  };
  return { fake, nc: fake as unknown as NatsConnection };
}

const pool = (...listens: string[]) => listens.map((listen) => ({ listen }) as Server);

describe('ClusterSpread (with a fake connection and fake randomness)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('moves to a node that joined when the draw falls under joined / cluster size, and dials that node', () => {
    const draws = [0.3, 0.9, 0.5]; // move? (0.3 < 1/2), which joined node, when (0.5 of the window)
    const spread = new ClusterSpread({
      windowMs: 1_000,
      everyMs: 100,
      quietMs: 0,
      random: () => draws.shift()!,
    });
    const { fake, nc } = fakeConnection();
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(100);
    expect(spread.moving).toBe(true);
    jest.advanceTimersByTime(499);
    expect(fake.reconnect).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fake.reconnect).toHaveBeenCalledTimes(1);
    expect(spread.reconnectToServer(pool('a:4222', 'b:4222'), null)).toEqual({ listen: 'b:4222' });
    // Only once: the next pick is the library's own.
    expect(spread.reconnectToServer(pool('a:4222', 'b:4222'), null)).toBeNull();
    spread.stop();
  });

  it('stays when the draw is over joined / cluster size, or when nothing joined', () => {
    const spread = new ClusterSpread({ windowMs: 1_000, everyMs: 100, quietMs: 0, random: () => 0.6 });
    const { fake, nc } = fakeConnection();
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    jest.advanceTimersByTime(500);
    fake.info.connect_urls = ['a:4222', 'b:4222', 'c:4222']; // 1 of 3 joined: 0.6 stays
    jest.advanceTimersByTime(2_000);
    expect(fake.reconnect).not.toHaveBeenCalled();
    spread.stop();
  });

  it('takes a new server’s list as the baseline after a reconnect, and drops a move planned on the old one', () => {
    const spread = new ClusterSpread({ windowMs: 1_000, everyMs: 100, quietMs: 0, random: () => 0 });
    const { fake, nc } = fakeConnection();
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(100);
    expect(spread.moving).toBe(true);
    // The connection failed over to b by itself before the move: b's list is no news.
    fake.info = { server_id: 'B', server_name: 'b', connect_urls: ['a:4222', 'b:4222'] };
    jest.advanceTimersByTime(2_000);
    expect(fake.reconnect).not.toHaveBeenCalled();
    spread.stop();
  });

  it('draws again among every node that joined when another one joins while a move waits', () => {
    // move to b? yes (0.1 < 1/2); to b; in 0.9 of the window. Then c joins: move? yes (0.5 < 2/3); to c (0.6 of 2); at once.
    const draws = [0.1, 0.1, 0.9, 0.5, 0.6, 0];
    const spread = new ClusterSpread({
      windowMs: 1_000,
      everyMs: 100,
      quietMs: 0,
      random: () => draws.shift()!,
    });
    const { fake, nc } = fakeConnection();
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(100);
    fake.info.connect_urls = ['a:4222', 'b:4222', 'c:4222'];
    jest.advanceTimersByTime(101);
    expect(fake.reconnect).toHaveBeenCalledTimes(1);
    expect(spread.reconnectToServer(pool('a:4222', 'b:4222', 'c:4222'), null)).toEqual({ listen: 'c:4222' });
    jest.advanceTimersByTime(2_000);
    expect(fake.reconnect).toHaveBeenCalledTimes(1);
    spread.stop();
  });

  it('never moves to the node it is on, even when that node advertises itself anew', () => {
    const spread = new ClusterSpread({ windowMs: 1_000, everyMs: 100, quietMs: 0, random: () => 0 });
    const { fake, nc } = fakeConnection();
    fake.info.connect_urls = ['b:4222'];
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    // The node it is on (a) shows up in the list, as a rejoined node's own address would.
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(2_000);
    expect(spread.moving).toBe(false);
    expect(fake.reconnect).not.toHaveBeenCalled();
    spread.stop();
  });

  it('says a move is planned from its start until 10 s later, so its disconnect is logged at info', () => {
    const spread = new ClusterSpread({ windowMs: 1_000, everyMs: 100, quietMs: 0, random: () => 0 });
    const { fake, nc } = fakeConnection();
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    expect(spread.planned).toBe(false);
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(101);
    expect(fake.reconnect).toHaveBeenCalledTimes(1);
    spread.reconnectToServer(pool('a:4222', 'b:4222'), null);
    expect(spread.moving).toBe(false);
    expect(spread.planned).toBe(true);
    jest.advanceTimersByTime(10_000);
    expect(spread.planned).toBe(false);
    spread.stop();
  });

  it('moves only once the connection carried no message for quietMs, so replies in flight arrive first', async () => {
    const spread = new ClusterSpread({ windowMs: 1_000, everyMs: 100, quietMs: 250, random: () => 0 });
    const { fake, nc } = fakeConnection();
    spread.attach(nc);
    jest.advanceTimersByTime(100);
    fake.info.connect_urls = ['a:4222', 'b:4222'];
    jest.advanceTimersByTime(101);
    // Busy: a message every 50 ms for 1 s holds the move back.
    for (let i = 0; i < 20; i++) {
      fake.traffic.outMsgs += 1;
      await jest.advanceTimersByTimeAsync(50);
    }
    expect(fake.reconnect).not.toHaveBeenCalled();
    expect(spread.moving).toBe(true);
    await jest.advanceTimersByTimeAsync(300);
    expect(fake.reconnect).toHaveBeenCalledTimes(1);
    spread.stop();
  });
});
