import type { IncomingMessage } from 'node:http';
import { bodyLimitOf } from './forward';

const limits = { body: 1024, upload: 50 * 1024 * 1024, publicBody: 256 };
const req = (method: string, url: string, type: string) =>
  ({ method, url, headers: { 'content-type': type } }) as unknown as IncomingMessage;
const CHUNK = 'application/offset+octet-stream';

describe('bodyLimitOf', () => {
  it('holds JSON to BODY_LIMIT and other bodies to UPLOAD_LIMIT', () => {
    expect(bodyLimitOf(req('POST', '/acl/api/v1/users', 'application/json'), limits)).toBe(1024);
    expect(
      bodyLimitOf(req('POST', '/documents/api/v1/documents', 'multipart/form-data; boundary=x'), limits),
    ).toBe(limits.upload);
  });

  it('holds a body without a token to PUBLIC_BODY_LIMIT as well', () => {
    const login = req('POST', '/acl/api/v1/auth/token', 'application/json');
    expect(bodyLimitOf(login, limits, true)).toBe(256);
    expect(bodyLimitOf(login, limits)).toBe(1024);
    expect(bodyLimitOf(req('POST', '/acl/api/v1/x', 'application/octet-stream'), limits, true)).toBe(256);
  });

  it('sets no limit on tus chunks sent to the resumable uploads (documents bounds them)', () => {
    const id = '3f1c9a52-8f0e-4a8e-9b8e-0c6f3d2a1b7c';
    expect(bodyLimitOf(req('PATCH', `/documents/api/v1/uploads/${id}`, CHUNK), limits)).toBe(Infinity);
    expect(bodyLimitOf(req('POST', '/documents/api/v1/uploads', CHUNK), limits)).toBe(Infinity);
    expect(bodyLimitOf(req('POST', '/documents/api/v1/uploads?x=1', CHUNK), limits)).toBe(Infinity);
  });

  it('keeps UPLOAD_LIMIT for tus chunks anywhere else, or other types on the uploads path', () => {
    expect(bodyLimitOf(req('PATCH', '/documents/api/v1/documents/x', CHUNK), limits)).toBe(limits.upload);
    expect(bodyLimitOf(req('PATCH', '/content/api/v1/uploads/x', CHUNK), limits)).toBe(limits.upload);
    expect(bodyLimitOf(req('PATCH', '/documents/api/v1/uploads/x/y', CHUNK), limits)).toBe(limits.upload);
    expect(bodyLimitOf(req('PUT', '/documents/api/v1/uploads/x', CHUNK), limits)).toBe(limits.upload);
    expect(bodyLimitOf(req('PATCH', '/documents/api/v1/uploads/x', 'application/octet-stream'), limits)).toBe(
      limits.upload,
    );
  });
});
