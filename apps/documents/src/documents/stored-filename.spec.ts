import { storedContentType, storedFilename } from './stored-filename';

describe('storedFilename (docs/api/contract.md §4.11)', () => {
  it('keeps the base name only, whatever separators the client used', () => {
    expect(storedFilename('../../x')).toBe('x');
    expect(storedFilename('/etc/passwd')).toBe('passwd');
    expect(storedFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(storedFilename('a/b\\c/..\\d.txt')).toBe('d.txt');
  });

  it('removes control characters, NUL included, and keeps other Unicode', () => {
    expect(storedFilename('re\u0000port\r\n.pdf')).toBe('report.pdf');
    expect(storedFilename('tab\there\u007f\u0085.txt')).toBe('tabhere.txt');
    expect(storedFilename('Übersicht – 2026 ✓.pdf')).toBe('Übersicht – 2026 ✓.pdf');
  });

  it('cuts to 255 characters and never splits a surrogate pair', () => {
    expect(storedFilename('a'.repeat(1000))).toBe('a'.repeat(255));
    expect(storedFilename('a'.repeat(255))).toBe('a'.repeat(255));
    const emoji = '😀'.repeat(300);
    const stored = storedFilename(emoji);
    expect(Array.from(stored)).toHaveLength(255);
    expect(stored).toBe('😀'.repeat(255));
  });

  it('replaces a lone surrogate rather than storing invalid Unicode', () => {
    expect(storedFilename('bad\uD800.txt')).toBe('bad\uFFFD.txt');
  });

  it("falls back to 'file' when nothing is left", () => {
    expect(storedFilename('')).toBe('file');
    expect(storedFilename(undefined)).toBe('file');
    expect(storedFilename('dir/')).toBe('file');
    expect(storedFilename('\u0000\u0001')).toBe('file');
  });
});

describe('storedContentType', () => {
  it('keeps a well-formed declared media type, parameters included', () => {
    expect(storedContentType('application/pdf')).toBe('application/pdf');
    expect(storedContentType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(storedContentType('image/svg+xml')).toBe('image/svg+xml');
  });

  it('uses application/octet-stream for a missing or malformed one', () => {
    expect(storedContentType(undefined)).toBe('application/octet-stream');
    expect(storedContentType('')).toBe('application/octet-stream');
    expect(storedContentType('nonsense')).toBe('application/octet-stream');
    expect(storedContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(storedContentType(`a/${'b'.repeat(300)}`)).toBe('application/octet-stream');
  });
});
