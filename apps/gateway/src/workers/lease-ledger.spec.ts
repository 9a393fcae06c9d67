import { RateLimiter } from '../proxy/rate-limit';
import { LeaseLedger } from './shared-rate-limit';

describe('LeaseLedger', () => {
  const t0 = 1_000_000;

  it('hands out at most the burst at once, however many workers ask, then refuses with Retry-After', () => {
    const ledger = new LeaseLedger(60, 2);
    let granted = 0;
    for (let i = 0; i < 40; i += 1) granted += ledger.grant('a', 1, t0).granted;
    expect(granted).toBe(60);
    const refused = ledger.grant('a', 1, t0);
    expect(refused.granted).toBe(0);
    // As one process's limiter answers the same request.
    const alone = new RateLimiter(60);
    for (let i = 0; i < 60; i += 1) alone.take('a', t0);
    expect(refused.wait).toBe(alone.take('a', t0));
    ledger.close();
    alone.close();
  });

  it('leases ahead while the allowance is ample and asks one by one near the limit', () => {
    const ledger = new LeaseLedger(1200, 2);
    // 1200 left: a quarter of it, at most 64.
    expect(ledger.grant('a', 1, t0).granted).toBe(1 + 64);
    const small = new LeaseLedger(8, 2);
    // 8 left: 8 / (2 × 2) = 2 ahead.
    expect(small.grant('a', 1, t0).granted).toBe(3);
    // 5 left: 1 ahead; then 3, 2, 1, 0 left: nothing ahead.
    expect(small.grant('a', 1, t0).granted).toBe(2);
    expect([1, 2, 3].map(() => small.grant('a', 1, t0).granted)).toEqual([1, 1, 1]);
    expect(small.grant('a', 1, t0).granted).toBe(0);
    ledger.close();
    small.close();
  });

  it('grants again what was handed back unspent', () => {
    const ledger = new LeaseLedger(10, 1);
    expect(ledger.grant('a', 10, t0).granted).toBe(10);
    expect(ledger.grant('a', 1, t0).granted).toBe(0);
    ledger.settle('a', 6, 4);
    expect(ledger.grant('a', 4, t0).granted).toBe(4);
    expect(ledger.grant('a', 1, t0).granted).toBe(0);
    ledger.close();
  });

  it('counts credits a worker still holds as spent now, however late it spends them (no extra burst)', () => {
    const ledger = new LeaseLedger(10, 1);
    // 1 asked for, 5 ahead: held by the worker, unspent.
    expect(ledger.grant('a', 1, t0).granted).toBe(6);
    // Much later the allowance would be whole again, but for the 6 credits still out there.
    const later = t0 + 120_000;
    const grant = ledger.grant('a', 10, later);
    expect(grant.granted).toBe(4);
    expect(grant.wait).toBeGreaterThan(0);
    // Once reported spent, they count when they were granted, long past: the burst is whole.
    ledger.settle('a', 6, 0);
    ledger.settle('a', 4, 0);
    expect(ledger.grant('a', 10, later + 60_000).granted).toBe(10);
    ledger.close();
  });

  it('forgets the credits of a worker that is gone', () => {
    const ledger = new LeaseLedger(10, 1);
    expect(ledger.grant('a', 1, t0).granted).toBe(6);
    ledger.forget('a', 6);
    expect(ledger.grant('a', 10, t0 + 60_000).granted).toBe(10);
    ledger.close();
  });

  it('lets no more through than one process would, with three workers spending and reporting late', () => {
    const ledger = new LeaseLedger(100, 3);
    const alone = new RateLimiter(100);
    // A request every 50 ms, dealt to the workers in turn; each spends credits it holds, asks
    // when it has none, and reports what it spent (and hands back what it holds) once a second.
    const held = [0, 0, 0];
    const spent = [0, 0, 0];
    let passed = 0;
    let passedAlone = 0;
    for (let ms = 0; ms < 120_000; ms += 50) {
      const now = t0 + ms;
      const worker = (ms / 50) % 3;
      if (alone.take('a', now) === 0) passedAlone += 1;
      if (held[worker] === 0) held[worker] += ledger.grant('a', 1, now).granted;
      if (held[worker] > 0) {
        held[worker] -= 1;
        spent[worker] += 1;
        passed += 1;
      }
      if (ms % 1_000 === 0)
        for (let w = 0; w < 3; w += 1) {
          ledger.settle('a', spent[w], held[w]);
          spent[w] = 0;
          held[w] = 0;
        }
    }
    expect(passed).toBeLessThanOrEqual(passedAlone);
    // Near the limit every request is asked for one by one: nearly all of the allowance is used.
    expect(passed).toBeGreaterThanOrEqual(passedAlone - 3);
    ledger.close();
    alone.close();
  });

  it('is off at 0 requests per minute', () => {
    const ledger = new LeaseLedger(0, 2);
    expect(ledger.grant('a', 5, t0).wait).toBe(0);
    expect(ledger.grant('a', 5, t0).granted).toBeGreaterThanOrEqual(5);
    ledger.close();
  });
});
