import { GroupCommit } from './group-commit';

/** A write the test finishes by hand, recording what each write was given. */
function handWrites() {
  const writes: { items: number[]; finish: (error?: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { writes, write };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes a lone item at once and what came in meanwhile together, at most `max` a write', async () => {
    const { writes, write } = handWrites();
    const commit = new GroupCommit(write, 3);
    const first = commit.add(1);
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((n) => commit.add(n));
    await settle();
    expect(writes).toHaveLength(1);
    writes[0].finish();
    await first;
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3, 4]]);
    writes[1].finish();
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3, 4], [5]]);
    writes[2].finish();
    await Promise.all(rest);
  });

  it('rejects the items of a failed write only, and goes on with the next', async () => {
    const { writes, write } = handWrites();
    const commit = new GroupCommit(write);
    const first = commit.add(1);
    const second = commit.add(2);
    await settle();
    writes[0].finish(new Error('lost'));
    await expect(first).rejects.toThrow('lost');
    await settle();
    expect(writes.map((w) => w.items)).toEqual([[1], [2]]);
    writes[1].finish();
    await expect(second).resolves.toBeUndefined();
  });
});
