import { BodyRate } from './body-rate';

/** 1000 bytes/s over 5 s windows, ticked every second from t = 0. */
const rate = () => new BodyRate(1000, 5_000, 1_000, 0);

/** Ticks once a second from `from` (exclusive) to `to`, `perTick` bytes before each; the first verdict that is true. */
function run(body: BodyRate, from: number, to: number, perTick: number, held = false): number | undefined {
  for (let t = from + 1_000; t <= to; t += 1_000) {
    body.received(perTick);
    if (body.tick(t, held)) return t;
  }
  return undefined;
}

describe('BodyRate', () => {
  it('cuts a client that sends less than the rate over a whole window, and only then', () => {
    const body = rate();
    expect(run(body, 0, 4_000, 100)).toBeUndefined();
    expect(run(body, 4_000, 5_000, 100)).toBe(5_000);
  });

  it('keeps a client that sends exactly the rate', () => {
    expect(run(rate(), 0, 30_000, 1_000)).toBeUndefined();
  });

  it('does not count the time the gateway held the body back (upstream not reading)', () => {
    const body = rate();
    // Four seconds at the rate, then 20 s held back: nothing arrives, nothing is owed.
    expect(run(body, 0, 4_000, 1_000)).toBeUndefined();
    expect(run(body, 4_000, 24_000, 0, true)).toBeUndefined();
    // Once released, the window goes on where it was: one more second at the rate completes it.
    expect(run(body, 24_000, 25_000, 1_000)).toBeUndefined();
  });

  it('does not count a tick that came late because the event loop was busy', () => {
    const body = rate();
    expect(run(body, 0, 2_000, 1_000)).toBeUndefined();
    // The loop was blocked for 8 s: the bytes sent meanwhile are not read yet.
    expect(body.tick(10_000, false)).toBe(false);
    // They are read now, and the window completes with them.
    expect(run(body, 10_000, 13_000, 1_000)).toBeUndefined();
  });

  it('still cuts a trickle whose ticks are on time between busy spells', () => {
    const body = rate();
    expect(body.tick(6_000, false)).toBe(false);
    expect(run(body, 6_000, 10_000, 10)).toBeUndefined();
    expect(run(body, 10_000, 11_000, 10)).toBe(11_000);
  });
});
