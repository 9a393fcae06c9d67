import { hasForbiddenCharacters } from './text';

describe('hasForbiddenCharacters', () => {
  it('accepts ordinary text and complete surrogate pairs', () => {
    expect(hasForbiddenCharacters('Newsroom 😀 ü')).toBe(false);
  });

  it('refuses NUL and lone surrogates (high or low)', () => {
    expect(hasForbiddenCharacters('a\u0000b')).toBe(true);
    expect(hasForbiddenCharacters('a\uD83Db')).toBe(true);
    expect(hasForbiddenCharacters('a\uDE00')).toBe(true);
  });
});
