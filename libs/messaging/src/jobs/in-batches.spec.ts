import { inBatches } from './in-batches';

/** An async source the test feeds by hand, and a handler the test finishes by hand. */
function handFed() {
  const items: number[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const source: AsyncIterable<number> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (items.length > 0) yield items.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const batches: { items: number[]; finish: (error?: Error) => void }[] = [];
  const handle = (batch: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push({ items: batch, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return {
    source,
    batches,
    handle,
    send: (...values: number[]) => {
      items.push(...values);
      wake?.();
    },
    end: () => {
      ended = true;
      wake?.();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('inBatches', () => {
  it('handles a lone item at once and what came meanwhile together, at most `max` a batch', async () => {
    const fed = handFed();
    const seen: number[] = [];
    const run = inBatches(fed.source, 3, fed.handle, (item) => seen.push(item));
    fed.send(1);
    await settle();
    expect(fed.batches.map((b) => b.items)).toEqual([[1]]);
    fed.send(2, 3, 4, 5);
    await settle();
    expect(fed.batches).toHaveLength(1);
    fed.batches[0].finish();
    await settle();
    expect(fed.batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    fed.batches[1].finish();
    await settle();
    expect(fed.batches.map((b) => b.items)).toEqual([[1], [2, 3, 4], [5]]);
    fed.batches[2].finish();
    fed.end();
    await run;
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops reading while a full batch waits', async () => {
    const fed = handFed();
    const seen: number[] = [];
    const run = inBatches(fed.source, 2, fed.handle, (item) => seen.push(item));
    fed.send(1, 2, 3, 4, 5, 6);
    await settle();
    // 1 is handled, 2 and 3 wait: a full batch, so 4 is not read until the handler finishes.
    expect(seen).toEqual([1, 2, 3]);
    fed.batches[0].finish();
    await settle();
    expect(fed.batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    fed.batches[1].finish();
    await settle();
    fed.batches.slice(2).forEach((b) => b.finish());
    await settle();
    fed.batches.slice(3).forEach((b) => b.finish());
    fed.end();
    await run;
    expect(fed.batches.flatMap((b) => b.items)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('handles an item that comes right after a drain ended, with no other item after it', async () => {
    const fed = handFed();
    const run = inBatches(fed.source, 10, fed.handle);
    fed.send(1);
    await settle();
    fed.batches[0].finish();
    await settle();
    fed.send(2);
    await settle();
    expect(fed.batches.map((b) => b.items)).toEqual([[1], [2]]);
    fed.batches[1].finish();
    fed.end();
    await run;
  });

  it('ends the run with the error of a failed batch', async () => {
    const fed = handFed();
    const run = inBatches(fed.source, 10, fed.handle);
    fed.send(1);
    await settle();
    fed.batches[0].finish(new Error('the database is gone'));
    fed.send(2);
    await expect(run).rejects.toThrow('the database is gone');
    expect(fed.batches.map((b) => b.items)).toEqual([[1]]);
  });
});
