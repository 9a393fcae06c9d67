import { contentDisposition, entityTag, noneMatch, parseRange } from './download';

const SHA = 'a'.repeat(64);
const ETAG = entityTag(SHA);

describe('entityTag and If-None-Match', () => {
  it('is a strong tag of the sha256', () => {
    expect(ETAG).toBe(`"${SHA}"`);
  });

  it('matches the tag, a list holding it, its weak form and *', () => {
    expect(noneMatch(ETAG, ETAG)).toBe(true);
    expect(noneMatch(`"other", ${ETAG}`, ETAG)).toBe(true);
    expect(noneMatch(`W/${ETAG}`, ETAG)).toBe(true);
    expect(noneMatch('*', ETAG)).toBe(true);
  });

  it('does not match another tag, an unquoted sha or no header', () => {
    expect(noneMatch('"other"', ETAG)).toBe(false);
    expect(noneMatch(SHA, ETAG)).toBe(false);
    expect(noneMatch(undefined, ETAG)).toBe(false);
  });
});

describe('parseRange (RFC 9110 §14)', () => {
  it('answers the whole content without a Range header', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'full' });
  });

  it('reads first-last, first- and -suffix ranges, clamping the end to the size', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=90-1000', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
    expect(parseRange('bytes=99-99', 100)).toEqual({ kind: 'partial', range: { start: 99, end: 99 } });
  });

  it('is unsatisfiable on both sides of the end: the last byte is fine, the next is not', () => {
    expect(parseRange('bytes=99-', 100).kind).toBe('partial');
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange(`bytes=${'9'.repeat(30)}-`, 100)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores malformed, reversed, multi-range and other-unit headers (whole content)', () => {
    for (const header of [
      'bytes=',
      'bytes=-',
      'bytes=a-b',
      'bytes=5-2',
      'bytes=0-1,5-6',
      'items=0-1',
      'nonsense',
    ]) {
      expect(parseRange(header, 100)).toEqual({ kind: 'full' });
    }
  });

  it('honours If-Range only when it names the current tag', () => {
    expect(parseRange('bytes=0-1', 100, ETAG, ETAG).kind).toBe('partial');
    expect(parseRange('bytes=0-1', 100, '"stale"', ETAG)).toEqual({ kind: 'full' });
  });
});

describe('contentDisposition (RFC 6266, RFC 8187)', () => {
  it('gives an ASCII name as is, twice', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
  });

  it('gives a Unicode name percent-encoded and an ASCII fallback', () => {
    expect(contentDisposition('Übersicht 2026.pdf')).toBe(
      `attachment; filename="_bersicht 2026.pdf"; filename*=UTF-8''%C3%9Cbersicht%202026.pdf`,
    );
  });

  it('never lets quotes, backslashes or percent signs break the quoted fallback', () => {
    const header = contentDisposition(`a"b\\c%d'(e).txt`);
    expect(header).toBe(
      `attachment; filename="a_b_c_d'(e).txt"; filename*=UTF-8''a%22b%5Cc%25d%27%28e%29.txt`,
    );
  });
});
