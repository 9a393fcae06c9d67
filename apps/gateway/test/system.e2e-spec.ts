/**
 * The whole system as a client sees it through the gateway: every app booted as its own process
 * against its own fresh database and the real NATS (docs/api/contract.md §0, §1, §2, §6).
 */
import { SERVICE_NAMES } from '@media/contracts';
import { call, completeOpenApi, mintToken, stack, type StackInfo } from '@media/testing';

let system: StackInfo;
let gw: string;

beforeAll(() => {
  system = stack();
  gw = system.gatewayUrl;
});

describe('the running system', () => {
  it('reports every one of the eight apps ready through the gateway', async () => {
    const res = await call(gw, '/health/ready');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.upstreams).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) expect(res.body.upstreams[name].status).toBe('up');
  });

  it('lets the administrator get a token and read its own profile', async () => {
    const login = await call(gw, '/acl/api/v1/auth/token', { json: system.admin });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const me = await call(gw, '/acl/api/v1/users/me', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: system.admin.email, roles: ['ADMIN'] });
  });

  it('accepts a token acl issued in every app', async () => {
    const login = await call(gw, '/acl/api/v1/auth/token', { json: system.admin });
    for (const prefix of ['content', 'assignment', 'inventory', 'commercial', 'payment', 'documents']) {
      // An authenticated request to an unknown path is the app's own 404, not a 401.
      const res = await call(gw, `/${prefix}/api/v1/no-such-thing`, { token: login.body.access_token });
      expect([prefix, res.status]).toEqual([prefix, 404]);
    }
  });

  it('keeps the X-Request-Id from the client to the app and back', async () => {
    const res = await call(gw, '/acl/api/v1/users/me', {
      token: mintToken(system.keys),
      headers: { 'x-request-id': 'trace-me-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-me-42');
  });

  it('answers an unknown first segment with 404 route_not_found, with or without a token', async () => {
    for (const token of [undefined, mintToken(system.keys)]) {
      const res = await call(gw, '/nowhere/api/v1/x', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        detail: expect.stringMatching(/^No route for \/nowhere/),
        code: 'route_not_found',
      });
    }
  });

  it('answers an unknown version with the app’s 404', async () => {
    const res = await call(gw, '/content/api/v2/lineup', { token: mintToken(system.keys) });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses an expired token at the gateway with 401 token_expired', async () => {
    const res = await call(gw, '/content/api/v1/lineup', {
      token: mintToken(system.keys, { expiresIn: -10 }),
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_expired');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('serves the merged OpenAPI document of the apps', async () => {
    expect((await call(gw, '/openapi.json')).status).toBe(200);
    const document = await completeOpenApi(gw);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/acl/api/v1/auth/token']));
  });

  it('gives every operation of the merged document a unique operationId (a generated client needs them)', async () => {
    const res = await call(gw, '/openapi.json');
    const ids = Object.values(
      res.body.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares every path parameter of every operation', async () => {
    const res = await call(gw, '/openapi.json');
    type Operation = { parameters?: { name: string; in: string }[] };
    const undeclared = Object.entries(res.body.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations).flatMap(([method, operation]) =>
          [...path.matchAll(/\{([^}]+)\}/g)]
            .map((m) => m[1])
            .filter((name) => !(operation.parameters ?? []).some((p) => p.in === 'path' && p.name === name))
            .map((name) => `${method} ${path}: ${name}`),
        ),
    );
    expect(undeclared).toEqual([]);
  });
});
