import { firstSegment, hasDotSegment, isHealthPath, isPublicPath, pathOf, ROUTES } from './routes';

describe('route table (docs/api/contract.md §0)', () => {
  it('maps each prefix to its app, api to chat-notifications', () => {
    expect(Object.fromEntries(ROUTES)).toEqual({
      content: 'content',
      assignment: 'assignment',
      inventory: 'inventory',
      commercial: 'commercial',
      payment: 'payment',
      acl: 'acl',
      documents: 'documents',
      api: 'chat-notifications',
    });
  });

  it('tells the health probes of the gateway and of every app from other paths', () => {
    for (const path of ['/health/live', '/health', '/content/health/ready', '/acl/health/'])
      expect(isHealthPath(path)).toBe(true);
    for (const path of ['/healthy', '/content/api/v1/health', '/content/healthz', '/a/b/health/live'])
      expect(isHealthPath(path)).toBe(false);
  });

  it('finds the first segment of a path without its query', () => {
    expect(firstSegment(pathOf('/content/api/v1/x?y=1'))).toBe('content');
    expect(firstSegment(pathOf('/content?y=1'))).toBe('content');
    expect(firstSegment('/')).toBe('');
  });

  it('spots dot segments, raw or percent-encoded, but not dotted names', () => {
    expect(hasDotSegment('/acl/../content')).toBe(true);
    expect(hasDotSegment('/acl/./x')).toBe(true);
    expect(hasDotSegment('/acl/%2e%2E/x')).toBe(true);
    expect(hasDotSegment('/acl/x/..')).toBe(true);
    expect(hasDotSegment('/acl/.well-known/jwks.json')).toBe(false);
    expect(hasDotSegment('/documents/api/v1/a..b')).toBe(false);
  });
});

describe('public paths (docs/api/contract.md §1)', () => {
  it.each([
    ['POST', '/acl/api/v1/auth/token'],
    ['POST', '/acl/api/v1/auth/refresh'],
    ['GET', '/acl/.well-known/jwks.json'],
    ['GET', '/acl/.well-known/audit-keys.json'],
    ['POST', '/acl/api/v1/auth/invitations/abc/accept'],
    ['GET', '/content/health/ready'],
    ['HEAD', '/api/health/live'],
    ['GET', '/payment/openapi.json'],
  ])('%s %s needs no token', (method, path) => {
    expect(isPublicPath(method, path)).toBe(true);
  });

  it.each([
    ['GET', '/acl/api/v1/auth/token'],
    ['POST', '/acl/.well-known/jwks.json'],
    ['POST', '/acl/.well-known/audit-keys.json'],
    ['GET', '/acl/api/v1/audit/all'],
    ['POST', '/acl/api/v1/auth/invitations/abc/def/accept'],
    ['GET', '/content/health/ready/more'],
    ['GET', '/content/api/v1/health/ready'],
    ['GET', '/acl/api/v1/users/me'],
  ])('%s %s needs a token', (method, path) => {
    expect(isPublicPath(method, path)).toBe(false);
  });
});
