/**
 * What caches may keep, through the gateway (docs/api/contract.md §2 "Caching and hosts"): token
 * answers are `no-store` with `Pragma: no-cache` (RFC 6749 §5.1); every answer to a request with a
 * token is `no-store` unless the route chose its own policy (document content: `private, no-cache`);
 * public documents keep theirs.
 */
import { adminToken, call, mintToken, stack, type StackInfo } from '@media/testing';

let system: StackInfo;
let gw: string;

beforeAll(() => {
  system = stack();
  gw = system.gatewayUrl;
});

describe('token answers', () => {
  it('marks the login answer no-store and no-cache', async () => {
    const login = await call(gw, '/acl/api/v1/auth/token', { json: system.admin });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    expect(login.headers.get('pragma')).toBe('no-cache');
  });

  it('marks the refresh answer no-store and no-cache', async () => {
    const login = await call(gw, '/acl/api/v1/auth/token', { json: system.admin });
    const refreshed = await call(gw, '/acl/api/v1/auth/refresh', {
      json: { refresh_token: login.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    expect(refreshed.headers.get('pragma')).toBe('no-cache');
  });
});

describe('answers to requests with a token', () => {
  it('are no-store: a profile, a list, a 403 and an unknown route of an app', async () => {
    const admin = await adminToken(system);
    const nobody = mintToken(system.keys, { permissions: [] });
    const answers = await Promise.all([
      call(gw, '/acl/api/v1/users/me', { token: admin }),
      call(gw, '/acl/api/v1/users?page_size=1', { token: admin }),
      call(gw, '/acl/api/v1/users', { token: nobody }),
      call(gw, '/acl/api/v1/no-such-route', { token: admin }),
    ]);
    expect(answers.map((res) => [res.status, res.headers.get('cache-control')])).toEqual([
      [200, 'no-store'],
      [200, 'no-store'],
      [403, 'no-store'],
      [404, 'no-store'],
    ]);
  });

  it("keep a route's own policy: document content is private, no-cache", async () => {
    const token = mintToken(system.keys, { permissions: ['documents:write'] });
    const form = new FormData();
    form.append('file', new Blob(['cached?'], { type: 'text/plain' }), 'note.txt');
    const created = await call(gw, '/documents/api/v1/documents', { token, multipart: form });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const content = await call(gw, `/documents/api/v1/documents/${created.body.id}/content`, { token });
    expect(content.status).toBe(200);
    expect(content.text).toBe('cached?');
    expect(content.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('leaves public answers as the app made them (the JWKS stays cacheable)', async () => {
    const jwks = await call(gw, '/acl/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
