import { escalationLevel, MAX_LEVEL } from './escalation-level';

const DAY = 86_400_000;

describe('escalationLevel', () => {
  it('is 0 until the task is past due', () => {
    expect(escalationLevel(-DAY, DAY)).toBe(0);
    expect(escalationLevel(0, DAY)).toBe(0);
  });

  it('is 1 as soon as the task is past due, and stays 1 for the first interval', () => {
    expect(escalationLevel(1, DAY)).toBe(1);
    expect(escalationLevel(DAY - 1, DAY)).toBe(1);
  });

  it('adds one per full interval elapsed', () => {
    expect(escalationLevel(DAY, DAY)).toBe(2);
    expect(escalationLevel(2 * DAY - 1, DAY)).toBe(2);
    expect(escalationLevel(2 * DAY, DAY)).toBe(3);
    expect(escalationLevel(10 * DAY + 5, DAY)).toBe(11);
  });

  it('is capped so a task due ages ago with a short interval still fits', () => {
    expect(escalationLevel(1e15, 1000)).toBe(MAX_LEVEL);
  });

  it('stops at the configured maximum level', () => {
    expect(escalationLevel(9 * DAY, DAY, 10)).toBe(10);
    expect(escalationLevel(10 * DAY, DAY, 10)).toBe(10);
    expect(escalationLevel(1e15, DAY, 10)).toBe(10);
  });
});
