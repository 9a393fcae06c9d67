import type { IncomingMessage } from 'node:http';
import { resumeOf } from './push.gateway';

const upgrade = (url: string) => ({ url }) as IncomingMessage;

describe('resumeOf', () => {
  it('reads ?resume=<seq> as a number, and none as null', () => {
    expect(resumeOf(upgrade('/api/v1/ws?resume=0'))).toBe(0);
    expect(resumeOf(upgrade('/api/v1/ws?ticket=abc&resume=42'))).toBe(42);
    expect(resumeOf(upgrade('/api/v1/ws'))).toBeNull();
  });

  it('reads anything but digits (a sign, a fraction, empty, too long) as NaN: answered with resync', () => {
    for (const value of ['-1', '1.5', '', 'abc', '1e3', '9'.repeat(16)]) {
      expect(resumeOf(upgrade(`/api/v1/ws?resume=${value}`))).toBeNaN();
    }
  });
});
