import { displayName, toUserProfile } from './user.view';
import type { User } from './user.entity';

describe('displayName', () => {
  it('is "first last"', () => {
    expect(displayName({ firstName: 'Ana', lastName: 'Lima', email: 'ana@example.com' })).toBe('Ana Lima');
  });

  it('leaves out a missing part', () => {
    expect(displayName({ firstName: 'Ana', lastName: null, email: 'ana@example.com' })).toBe('Ana');
    expect(displayName({ firstName: null, lastName: 'Lima', email: 'ana@example.com' })).toBe('Lima');
  });

  it('falls back to the email for a user without a name', () => {
    expect(displayName({ firstName: null, lastName: '', email: 'new@example.com' })).toBe('new@example.com');
  });
});

describe('toUserProfile', () => {
  it('never carries the password hash', () => {
    const user = {
      id: 'u1',
      email: 'a@example.com',
      passwordHash: '$argon2id$secret',
      firstName: 'A',
      lastName: 'B',
      phoneNumber: null,
      employeeNumber: null,
      status: 'ACTIVE',
      dateJoined: new Date(),
      managerId: null,
    } as unknown as User;
    const profile = toUserProfile({ user, roles: [], permissions: [], groups: [] });
    expect(JSON.stringify(profile)).not.toContain('argon2');
    expect(Object.keys(profile)).not.toContain('passwordHash');
  });
});
