import { execFileSync } from 'node:child_process';
import * as v8 from 'node:v8';
import { limitHeapGrowth } from './heap';

jest.mock('node:v8', () => ({ ...jest.requireActual('node:v8'), setFlagsFromString: jest.fn() }));

describe('limitHeapGrowth', () => {
  beforeEach(() => jest.mocked(v8.setFlagsFromString).mockClear());

  it('sets V8 --heap-growing-percent', () => {
    limitHeapGrowth(50);
    expect(v8.setFlagsFromString).toHaveBeenCalledWith('--heap-growing-percent=50');
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
