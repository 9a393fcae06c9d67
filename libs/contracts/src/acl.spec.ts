import { ACL_USERS_MAX_IDS, idPages } from './acl';

describe('idPages', () => {
  it('splits distinct ids into pages of at most ACL_USERS_MAX_IDS, in first-seen order', () => {
    const ids = Array.from({ length: ACL_USERS_MAX_IDS + 1 }, (_, i) => `id-${i}`);
    const pages = idPages([...ids, 'id-0', 'id-1']);
    expect(pages.map((p) => p.length)).toEqual([ACL_USERS_MAX_IDS, 1]);
    expect(pages.flat()).toEqual(ids);
  });

  it('answers no page for no ids, and honours a smaller page size', () => {
    expect(idPages([])).toEqual([]);
    expect(idPages(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']]);
  });
});
