import { CONSUME_OPTIONS } from './event-consumer';
import { durableName, envelopeProblem, restartDelayMs, retryDelayMs } from './event-delivery';

describe('event delivery rules', () => {
  it('names one durable consumer per handler, with the optional prefix, in JetStream-safe characters', () => {
    expect(durableName(undefined, 'content', 'documents.document.deleted', 'Cleanup.onDeleted')).toBe(
      'content--documents_document_deleted--Cleanup_onDeleted',
    );
    expect(durableName('run42', 'content', 'a.b', 'H.m')).toBe('run42--content--a_b--H_m');
  });

  it('doubles the redelivery delay from the base, capped at 5 minutes', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(30, 1_000)).toBe(300_000);
  });

  it('restarts a stopped consume loop after 250 ms, doubling to at most 2 s', () => {
    expect([1, 2, 3, 4, 5, 20].map(restartDelayMs)).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
  });

  it('sizes pulls so that two missed heartbeats (a dead consumer leader) are noticed within about 2 s', () => {
    expect(CONSUME_OPTIONS.idle_heartbeat * 2).toBeLessThanOrEqual(2_000);
    // The library clamps heartbeats to at least 500 ms and wants expiry above them.
    expect(CONSUME_OPTIONS.idle_heartbeat).toBeGreaterThanOrEqual(500);
    expect(CONSUME_OPTIONS.expires).toBeGreaterThan(CONSUME_OPTIONS.idle_heartbeat);
  });

  it('refuses envelopes that no retry can fix', () => {
    expect(envelopeProblem({ id: 'x', subject: 's' })).toMatch(/not a uuid/);
    expect(envelopeProblem(null)).toMatch(/not an event envelope/);
    expect(envelopeProblem({ id: '0b7e6c1e-6f6c-4b8e-9a39-5f3b1f0c2a11' })).toMatch(/no subject/);
    expect(envelopeProblem({ id: '0b7e6c1e-6f6c-4b8e-9a39-5f3b1f0c2a11', subject: 's' })).toBeUndefined();
  });
});
