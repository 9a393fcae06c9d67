import { ValidationFailed } from '@media/core';
import { CursorCodec } from './cursor';

describe('CursorCodec', () => {
  const codec = new CursorCodec('s'.repeat(32));
  const scope = 'GET /acl/api/v1/users';

  it('round-trips a key and a direction', () => {
    const cursor = codec.encode(scope, { d: 'n', k: ['2026-01-01T00:00:00.000Z', 'b7c5'] });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(scope, cursor, 2)).toEqual({ d: 'n', k: ['2026-01-01T00:00:00.000Z', 'b7c5'] });
  });

  it('refuses a cursor whose body was changed', () => {
    const cursor = codec.encode(scope, { d: 'n', k: [1, 'a'] });
    const [, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ d: 'n', k: [2, 'a'] })).toString('base64url')}.${signature}`;
    expect(() => codec.decode(scope, forged, 2)).toThrow(ValidationFailed);
  });

  it('refuses a cursor taken from another list', () => {
    const cursor = codec.encode(scope, { d: 'n', k: [1, 'a'] });
    expect(() => codec.decode('GET /content/api/v1/lineup', cursor, 2)).toThrow(ValidationFailed);
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new CursorCodec('o'.repeat(32)).encode(scope, { d: 'n', k: [1, 'a'] });
    expect(() => codec.decode(scope, other, 2)).toThrow(ValidationFailed);
  });

  it('refuses a well-signed cursor with the wrong number of key values', () => {
    const cursor = codec.encode(scope, { d: 'n', k: [1] });
    expect(() => codec.decode(scope, cursor, 2)).toThrow(ValidationFailed);
  });

  it('reports the failure at ["query","cursor"]', () => {
    try {
      codec.decode(scope, 'junk', 2);
      throw new Error('accepted junk');
    } catch (error) {
      expect((error as ValidationFailed).issues).toEqual([
        { loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' },
      ]);
    }
  });
});
