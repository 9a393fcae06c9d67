import {
  bytesNestDeeperThan,
  jsonBytesProblem,
  mayHoldUnsafeText,
  narrowWideObjects,
  NOT_UTF8,
  TOO_DEEP,
  WIDE_OBJECT_KEY,
} from './json-bytes';

const bytes = (text: string) => Buffer.from(text);
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('bytesNestDeeperThan', () => {
  it('counts objects and arrays, up to the limit and one past it', () => {
    expect(bytesNestDeeperThan(bytes(nested(64)), 64)).toBe(false);
    expect(bytesNestDeeperThan(bytes(nested(65)), 64)).toBe(true);
    expect(bytesNestDeeperThan(bytes('{"a":'.repeat(65) + '1' + '}'.repeat(65)), 64)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(bytesNestDeeperThan(bytes(`{"a":"${'['.repeat(100)}"}`), 2)).toBe(false);
    expect(bytesNestDeeperThan(bytes(`{"a":"\\"${'['.repeat(100)}"}`), 2)).toBe(false);
    expect(bytesNestDeeperThan(bytes(`{"a\\\\":[[[1]]]}`), 2)).toBe(true);
  });

  it('stops at the first level too deep of a megabyte of brackets', () => {
    expect(bytesNestDeeperThan(bytes('['.repeat(1024 * 1024)), 64)).toBe(true);
  });
});

describe('jsonBytesProblem', () => {
  it('refuses bytes that are not UTF-8, and bodies nested too deep', () => {
    expect(jsonBytesProblem(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).toBe(
      NOT_UTF8,
    );
    expect(jsonBytesProblem(Buffer.from('{"a":"\xC0\xAF"}', 'latin1'))).toBe(NOT_UTF8);
    expect(jsonBytesProblem(bytes(nested(65)))).toBe(TOO_DEEP);
    expect(jsonBytesProblem(bytes(nested(66)), 2)).toBeUndefined();
    expect(jsonBytesProblem(bytes('{"a":"é😀"}'))).toBeUndefined();
  });
});

describe('mayHoldUnsafeText', () => {
  it('is false for text with no \\u escape and no reserved name', () => {
    expect(mayHoldUnsafeText(bytes('{"k0":1,"k1":"two","k2":["é"]}'))).toBe(false);
  });

  it('is true for any \\u escape and for the reserved names', () => {
    expect(mayHoldUnsafeText(bytes('{"a":"\\u0000"}'))).toBe(true);
    expect(mayHoldUnsafeText(bytes('{"a":"\\u0041"}'))).toBe(true);
    expect(mayHoldUnsafeText(bytes('{"__proto__":1}'))).toBe(true);
    expect(mayHoldUnsafeText(bytes('{"a":{"constructor":1}}'))).toBe(true);
  });
});

describe('narrowWideObjects', () => {
  const members = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => `"k${from + i}":${from + i}`).join(',');
  const parsed = (text: string, max: number) =>
    JSON.parse(narrowWideObjects(Buffer.from(text), max).toString()) as unknown;

  it('leaves bytes with no object wider than the limit as they are', () => {
    const bytes = Buffer.from(`{${members(2)},"a":[{${members(3)}}]}`);
    expect(narrowWideObjects(bytes, 3)).toBe(bytes);
  });

  it('keeps the first members of a wide object and says how many were cut', () => {
    expect(parsed(`{${members(5)}}`, 3)).toEqual({ k0: 0, k1: 1, k2: 2, [WIDE_OBJECT_KEY]: 5 });
  });

  it('cuts wide objects inside lists and objects, and whatever a cut covers with it', () => {
    const inner = `{${members(4)}}`;
    expect(parsed(`[${inner}, {"a": ${inner}}]`, 3)).toEqual([
      { k0: 0, k1: 1, k2: 2, [WIDE_OBJECT_KEY]: 4 },
      { a: { k0: 0, k1: 1, k2: 2, [WIDE_OBJECT_KEY]: 4 } },
    ]);
    expect(parsed(`{${members(3)},"w":${inner}}`, 3)).toEqual({ k0: 0, k1: 1, k2: 2, [WIDE_OBJECT_KEY]: 4 });
    expect(parsed(`{"w":${inner},${members(3)}}`, 3)).toEqual({
      w: { k0: 0, k1: 1, k2: 2, [WIDE_OBJECT_KEY]: 4 },
      k0: 0,
      k1: 1,
      [WIDE_OBJECT_KEY]: 4,
    });
  });

  it('counts duplicate keys as members, and ignores colons and braces in strings', () => {
    expect(parsed(`{${Array(5).fill('"k":1').join(',')}}`, 3)).toEqual({ k: 1, [WIDE_OBJECT_KEY]: 5 });
    expect(parsed(`{"a":"x:y,{}","b":"\\":"}`, 2)).toEqual({ a: 'x:y,{}', b: '":' });
  });
});
