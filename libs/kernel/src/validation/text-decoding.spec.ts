import { decodeComponent, InvalidText, parseUrlEncoded, TooManyPairs } from './text-decoding';

describe('decodeComponent: the one decoding step of queries, forms and paths (docs/api/contract.md §2)', () => {
  it('decodes percent escapes and + as UTF-8 text', () => {
    expect(decodeComponent('caf%C3%A9+au+lait')).toBe('café au lait');
    expect(decodeComponent('%F0%9F%98%80')).toBe('\u{1F600}');
    expect(decodeComponent('plain')).toBe('plain');
  });

  it('leaves a % without two hex digits as it is', () => {
    expect(decodeComponent('100%')).toBe('100%');
    expect(decodeComponent('%zz')).toBe('%zz');
  });

  it.each(['%FF', '%ED%A0%80', 'a%ED%A0%80b', '%C0%AF', '%E2%82'])('refuses %s as InvalidText', (raw) => {
    const decoded = decodeComponent(raw);
    expect(decoded).toBeInstanceOf(InvalidText);
    expect((decoded as InvalidText).raw).toBe(raw);
  });
});

describe('parseUrlEncoded', () => {
  it('makes repeated keys a list and keeps an invalid key under its raw text', () => {
    const parsed = parseUrlEncoded('a=1&b=2&b=3&%FF=x&c');
    expect(parsed.a).toBe('1');
    expect(parsed.b).toEqual(['2', '3']);
    expect(parsed['%FF']).toBeInstanceOf(InvalidText);
    expect(parsed.c).toBe('');
  });

  it('never sets the prototype from a __proto__ key', () => {
    const parsed = parseUrlEncoded('__proto__=x');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed['__proto__']).toBe('x');
  });

  it('reads at most maxPairs pairs', () => {
    expect(Object.keys(parseUrlEncoded('a=1&b=2&c=3', 2))).toEqual(['a', 'b']);
    expect(() => parseUrlEncoded('a=1&b=2&c=3', 2, true)).toThrow(TooManyPairs);
  });
});
