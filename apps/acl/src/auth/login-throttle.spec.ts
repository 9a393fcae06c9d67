import { FAILURE_MEMORY_MS, loginDelayMs, MAX_LOGIN_DELAY_MS } from './login-throttle';

describe('loginDelayMs', () => {
  const now = new Date('2025-01-01T12:00:00Z');
  const justNow = new Date(now.getTime() - 1000);

  it('adds no delay to an email without recent failures', () => {
    expect(loginDelayMs(0, null, now)).toBe(0);
    expect(loginDelayMs(0, justNow, now)).toBe(0);
  });

  it('doubles the delay with each consecutive failure', () => {
    expect([1, 2, 3, 4, 5].map((n) => loginDelayMs(n, justNow, now))).toEqual([50, 100, 200, 400, 800]);
  });

  it('never waits more than one second, however many failures', () => {
    expect(loginDelayMs(6, justNow, now)).toBe(MAX_LOGIN_DELAY_MS);
    expect(loginDelayMs(1000, justNow, now)).toBe(MAX_LOGIN_DELAY_MS);
  });

  it('forgets failures older than the memory window', () => {
    const old = new Date(now.getTime() - FAILURE_MEMORY_MS - 1);
    expect(loginDelayMs(10, old, now)).toBe(0);
  });
});
