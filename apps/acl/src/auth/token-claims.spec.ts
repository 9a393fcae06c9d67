import { buildAccessClaims } from './token-claims';

describe('buildAccessClaims', () => {
  const subject = {
    id: '5f0c6d1e-8a53-4a3b-9d53-0b2b1c2d3e4f',
    email: 'ana@example.com',
    name: 'Ana Lima',
    employee_number: 'E-7',
    groups: ['g1'],
    roles: ['EDITOR'],
    permissions: ['lineup:read', 'lineup:write'],
    ver: 3,
  };
  const rules = { issuer: 'media-backoffice-acl', audience: 'media-backoffice', ttlMs: 15 * 60_000 };
  const now = new Date('2025-03-01T10:00:00.900Z');

  it('carries every claim of docs/api/contract.md §1 and nothing else', () => {
    const claims = buildAccessClaims(subject, rules, now, 'jti-1');
    expect(claims).toEqual({
      sub: subject.id,
      email: 'ana@example.com',
      name: 'Ana Lima',
      employee_number: 'E-7',
      groups: ['g1'],
      roles: ['EDITOR'],
      permissions: ['lineup:read', 'lineup:write'],
      iss: 'media-backoffice-acl',
      aud: 'media-backoffice',
      iat: 1740823200,
      exp: 1740823200 + 900,
      jti: 'jti-1',
      ver: 3,
    });
  });

  it('expires after the configured lifetime, 15 minutes by default', () => {
    const claims = buildAccessClaims(subject, rules, now);
    expect(claims.exp - claims.iat).toBe(900);
  });

  it('gives each token its own jti', () => {
    expect(buildAccessClaims(subject, rules, now).jti).not.toBe(buildAccessClaims(subject, rules, now).jti);
  });

  it('copies the arrays so later changes of the subject do not alter an issued token', () => {
    const claims = buildAccessClaims(subject, rules, now);
    expect(claims.roles).not.toBe(subject.roles);
  });
});
