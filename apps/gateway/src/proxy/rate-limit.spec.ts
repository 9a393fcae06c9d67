import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  const t0 = 1_000_000;

  it('lets a client burst its whole minute, then refuses with the seconds until the next request', () => {
    const limiter = new RateLimiter(3);
    expect([limiter.take('a', t0), limiter.take('a', t0), limiter.take('a', t0)]).toEqual([0, 0, 0]);
    // One request every 20 s is earned back; the next is due 20 s after the burst.
    expect(limiter.take('a', t0)).toBe(20);
    expect(limiter.take('a', t0 + 19_500)).toBe(1);
    expect(limiter.take('a', t0 + 20_000)).toBe(0);
    limiter.close();
  });

  it('counts each client on its own', () => {
    const limiter = new RateLimiter(1);
    expect(limiter.take('a', t0)).toBe(0);
    expect(limiter.take('b', t0)).toBe(0);
    expect(limiter.take('a', t0)).toBeGreaterThan(0);
    limiter.close();
  });

  it('never lets more than the limit through in any 60 s, even across a window edge', () => {
    const limiter = new RateLimiter(10);
    let allowed = 0;
    for (let ms = 0; ms < 60_000; ms += 500) if (limiter.take('a', t0 + ms) === 0) allowed += 1;
    // A burst of 10, then one per 6 s earned back during the same minute.
    expect(allowed).toBe(10 + 9);
    limiter.close();
  });

  it('is off at 0 requests per minute', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 10_000; i += 1) expect(limiter.take('a', t0)).toBe(0);
    limiter.close();
  });
});
