import { hash } from '@node-rs/argon2';
import { hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id at 7 MiB, t=5, p=1 and verifies the password, not another', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    await expect(verifyPassword(stored, 'correct horse battery staple')).resolves.toBe(true);
    await expect(verifyPassword(stored, 'correct horse battery stapler')).resolves.toBe(false);
  });

  it('still verifies a password hashed with the library default (19 MiB, t=2) before', async () => {
    const before = await hash('an older password');
    expect(before).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(verifyPassword(before, 'an older password')).resolves.toBe(true);
    await expect(verifyPassword(before, 'another')).resolves.toBe(false);
  });
});
