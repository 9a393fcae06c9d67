import { describedFile, parseChecksum, parseMetadata, requireTusVersion } from './tus-headers';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('tus headers', () => {
  it('reads Upload-Metadata pairs, a key without a value, and UTF-8 values', () => {
    const pairs = parseMetadata(
      `filename ${b64('Übersicht.mp4')},is_confidential,filetype ${b64('video/mp4')}`,
    );
    expect([...pairs]).toEqual([
      ['filename', 'Übersicht.mp4'],
      ['is_confidential', ''],
      ['filetype', 'video/mp4'],
    ]);
    expect(describedFile(pairs)).toEqual({ filename: 'Übersicht.mp4', contentType: 'video/mp4' });
  });

  it('refuses malformed Upload-Metadata with 400', () => {
    for (const bad of ['filename a b', `filename ${b64('a')},filename ${b64('b')}`, 'filename !!!']) {
      expect(() => parseMetadata(bad)).toThrow(expect.objectContaining({ status: 400, code: 'bad_request' }));
    }
  });

  it('reads Upload-Checksum and refuses an algorithm not offered', () => {
    expect(parseChecksum('sha1 AAEC')).toEqual({ algorithm: 'sha1', digest: Buffer.from([0, 1, 2]) });
    expect(parseChecksum(undefined)).toBeUndefined();
    expect(() => parseChecksum('md5 AAEC')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => parseChecksum('sha256')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('accepts only Tus-Resumable 1.0.0 (412 otherwise)', () => {
    expect(() => requireTusVersion('1.0.0')).not.toThrow();
    expect(() => requireTusVersion(undefined)).toThrow(expect.objectContaining({ status: 412 }));
    expect(() => requireTusVersion('0.2.2')).toThrow(
      expect.objectContaining({ status: 412, headers: { 'Tus-Version': '1.0.0' } }),
    );
  });
});
