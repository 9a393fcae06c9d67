import { ConsumerProgress } from './consumer-progress';

const snapshot = (pending: number, ackPending: number, ackFloor: number) => ({
  pending,
  ackPending,
  redelivered: 0,
  ackFloor,
});

describe('ConsumerProgress', () => {
  it('is stalled when events stay pending and nothing is acknowledged for the threshold', () => {
    const progress = new ConsumerProgress('c', 30_000, 0);
    progress.observed(snapshot(5, 0, 10), 1_000);
    expect(progress.report(20_000)).toMatchObject({ stalled: false, stalledSeconds: 20 });
    progress.observed(snapshot(5, 0, 10), 31_000);
    expect(progress.report(31_000)).toMatchObject({
      stalled: true,
      stalledSeconds: 31,
      pending: 5,
      reason: '5 events pending, none acknowledged',
    });
  });

  it('is never stalled with nothing pending, however long it stays idle', () => {
    const progress = new ConsumerProgress('c', 30_000, 0);
    progress.observed(snapshot(0, 0, 10), 1_000);
    expect(progress.report(600_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });
  });

  it('counts an acknowledgement here, or the ack floor moving on the server, as progress', () => {
    const progress = new ConsumerProgress('c', 30_000, 0);
    progress.observed(snapshot(5, 1, 10), 0);
    progress.acknowledged(25_000);
    expect(progress.report(40_000)).toMatchObject({ stalled: false, stalledSeconds: 15 });
    // Another replica acknowledged: the floor moved.
    progress.observed(snapshot(4, 1, 11), 50_000);
    expect(progress.report(60_000)).toMatchObject({ stalled: false, stalledSeconds: 10 });
  });

  it('is stalled when the server cannot be asked for the threshold, and says why', () => {
    const progress = new ConsumerProgress('c', 2_000, 0);
    progress.observed(snapshot(0, 0, 10), 0);
    progress.unreadable('TimeoutError: timeout');
    expect(progress.report(1_000).stalled).toBe(false);
    expect(progress.report(2_500)).toMatchObject({
      stalled: true,
      reason: 'consumer info unavailable (TimeoutError: timeout)',
    });
    progress.observed(snapshot(0, 0, 10), 3_000);
    expect(progress.report(3_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });
  });

  it('counts a consumer that was never created as possibly waiting', () => {
    const progress = new ConsumerProgress('c', 2_000, 0);
    expect(progress.report(3_000)).toMatchObject({ stalled: true, pending: null });
    expect(progress.report(3_000).reason).toMatch(/not created yet/);
  });

  it('is no longer stalled once its leader answers again when it was idle, and stays stalled with a backlog', () => {
    const idle = new ConsumerProgress('idle', 2_000, 0);
    idle.observed(snapshot(0, 0, 10), 1_000);
    idle.unreadable('JetStream system temporarily unavailable');
    expect(idle.report(10_000)).toMatchObject({ stalled: true });
    idle.answered(false, 10_000);
    expect(idle.report(10_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });

    const busy = new ConsumerProgress('busy', 2_000, 0);
    busy.observed(snapshot(5, 0, 10), 1_000);
    busy.unreadable('JetStream system temporarily unavailable');
    busy.answered(false, 10_000);
    expect(busy.report(10_000)).toMatchObject({
      stalled: true,
      reason: '5 events pending, none acknowledged',
    });
  });

  it('stays readable while its leader answers, whatever a failed reading of its info says', () => {
    const progress = new ConsumerProgress('c', 2_000, 0, 3_000);
    progress.observed(snapshot(0, 0, 10), 0);
    progress.unreadable('JetStream system temporarily unavailable');
    expect(progress.report(5_000)).toMatchObject({ stalled: true });
    progress.answered(false, 5_000);
    // The monitor's next reading fails again (the API is still settling): the pull vouches.
    progress.unreadable('TimeoutError: timeout');
    expect(progress.report(6_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });
    // Nothing heard from the leader for longer than it vouches: unreadable again.
    expect(progress.report(9_000)).toMatchObject({
      stalled: true,
      reason: 'consumer info unavailable (TimeoutError: timeout)',
    });
  });

  it('counts an idle heartbeat as progress: a consumer never read, or read with a stale backlog, is not stalled once its leader has nothing to deliver', () => {
    const created = new ConsumerProgress('created', 2_000, 0);
    expect(created.report(5_000)).toMatchObject({ stalled: true, pending: null });
    created.answered(true, 5_000);
    expect(created.report(5_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });

    // Read before quorum was lost with a backlog since applied by another replica.
    const stale = new ConsumerProgress('stale', 2_000, 0);
    stale.observed(snapshot(5, 0, 10), 0);
    stale.unreadable('JetStream system temporarily unavailable');
    stale.answered(true, 20_000);
    expect(stale.report(21_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });
    // The heartbeats stop and the server cannot be asked (leader lost): the time counts from
    // the last heartbeat.
    stale.unreadable('JetStream system temporarily unavailable');
    expect(stale.report(26_000)).toMatchObject({ stalled: true, stalledSeconds: 6 });
  });

  it('does not suspect a backlog in a consumer its leader said idle, when a heartbeat is late and no reading says otherwise', () => {
    // Created during a recovery: never read yet, answered idle, then a heartbeat is late
    // (a loaded process, a new pull) while the monitor has not read it.
    const created = new ConsumerProgress('created', 2_000, 0, 3_000);
    created.answered(true, 5_000);
    expect(created.report(12_000)).toMatchObject({ stalled: false, stalledSeconds: 0 });
    // A reading after that heartbeat decides again: a backlog with no progress is a stall.
    created.observed(snapshot(3, 0, 0), 12_000);
    expect(created.report(15_000)).toMatchObject({
      stalled: true,
      reason: '3 events pending, none acknowledged',
    });
  });

  it('does not count an idle heartbeat as progress while a failed delivery waits for its redelivery', () => {
    const progress = new ConsumerProgress('c', 2_000, 0);
    progress.observed(snapshot(0, 0, 10), 0);
    progress.failed();
    progress.answered(true, 5_000);
    expect(progress.report(5_000)).toMatchObject({ stalled: false });
    // The reading shows it waiting for acknowledgement: heartbeats do not hide it.
    progress.observed(snapshot(0, 1, 10), 6_000);
    progress.answered(true, 9_000);
    expect(progress.report(9_000)).toMatchObject({
      stalled: true,
      reason: '1 events pending, none acknowledged',
    });
  });
});
