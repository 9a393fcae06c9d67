import { allows, firstBlockedDirectory, type StatLike } from './permissions';

const dir = (mode: number, uid = 0, gid = 0): StatLike => ({ mode: 0o040000 | mode, uid, gid });
const postgres = { uid: 101, gids: [104] };

describe('permissions of the postgres user (runner started as root)', () => {
  it('reads owner, group and other bits as the kernel would', () => {
    expect(allows(dir(0o700, 101), postgres, 'x')).toBe(true);
    expect(allows(dir(0o750, 0, 104), postgres, 'x')).toBe(true);
    expect(allows(dir(0o750, 0, 0), postgres, 'x')).toBe(false);
    expect(allows(dir(0o701, 0, 0), postgres, 'x')).toBe(true);
    expect(allows(dir(0o000), { uid: 0, gids: [0] }, 'r')).toBe(true);
  });

  it('finds the first directory on the way that it cannot enter', () => {
    const tree: Record<string, StatLike> = { '/': dir(0o755), '/root': dir(0o700), '/root/app': dir(0o755) };
    expect(firstBlockedDirectory('/root/app/.data/postgres', postgres, (p) => tree[p])).toBe('/root');
  });

  it('passes when every existing directory is enterable, skipping those not made yet', () => {
    const tree: Record<string, StatLike> = { '/': dir(0o755), '/work': dir(0o755), '/work/main': dir(0o711) };
    expect(firstBlockedDirectory('/work/main/.data/postgres', postgres, (p) => tree[p])).toBeUndefined();
  });

  it('counts only "other" bits for a user that does not exist yet', () => {
    const tree: Record<string, StatLike> = { '/': dir(0o755), '/srv': dir(0o750, 0, 104) };
    expect(firstBlockedDirectory('/srv/data', { gids: [] }, (p) => tree[p])).toBe('/srv');
  });
});
