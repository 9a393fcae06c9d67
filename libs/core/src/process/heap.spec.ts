import { execFileSync } from 'node:child_process';
import * as v8 from 'node:v8';
import { collectGarbage, limitHeapGrowth } from './heap';

// Spied on, not replaced: the flags are really set (in this test process only).
jest.mock('node:v8', () => {
  const actual = jest.requireActual('node:v8');
  return { ...actual, setFlagsFromString: jest.fn(actual.setFlagsFromString) };
});

describe('limitHeapGrowth', () => {
  beforeEach(() => jest.mocked(v8.setFlagsFromString).mockClear());

  it('sets V8 --heap-growing-percent, then collects once so the next limit uses it', () => {
    limitHeapGrowth(50);
    expect(jest.mocked(v8.setFlagsFromString).mock.calls).toEqual([
      ['--heap-growing-percent=50'],
      ['--expose-gc'],
      ['--no-expose-gc'],
    ]);
  });

  it.each([0, -5, 12.5, 401, Number.NaN])('refuses %p and leaves V8 alone', (percent) => {
    expect(() => limitHeapGrowth(percent)).toThrow(RangeError);
    expect(v8.setFlagsFromString).not.toHaveBeenCalled();
  });

  it('names a flag this Node knows (V8 ignores an unknown one silently)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toContain('--heap-growing-percent');
  });
});

describe('collectGarbage', () => {
  it('runs a full collection (an object only a WeakRef holds is gone) and exposes no gc', async () => {
    const ref = ((): WeakRef<object> => new WeakRef({ payload: Buffer.alloc(1024) }))();
    // A WeakRef's target is kept until the job that created it ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
