/**
 * What a server is working on (its answers in flight, its open sockets), for its shutdown: how
 * many there are, and each of them. Added and removed once per request, so it is on the hottest
 * path of every process.
 *
 * Not a `Set`: a server's set of answers in flight sees every request go through it, and with a
 * `Set` in V8's old generation every request's objects (the response, its request, headers,
 * buffers, the log line) survived the young-generation collections and were promoted (measured,
 * the mechanism inside V8 not established): in the gateway under load, 14 MB of each 55 MB
 * allocated survived a scavenge against 0.4 MB without the set, scavenges took 15–25 ms instead
 * of 1–2, and the old generation filled at 20 MB/s (docs/benchmarks.md, "Third pass: a Set that
 * kept every request alive"). An array of slots, each freed slot cleared and reused, holds
 * nothing once an item is gone; with it the gateway's scavenges keep about what the bare proxy's
 * do (0.5 MB).
 */
export class InFlight<T extends object> {
  private readonly slots: (T | undefined)[] = [];
  /** Indexes of cleared slots, reused before the array grows. */
  private readonly free: number[] = [];
  private count = 0;

  /** Adds `item`; the slot returned is what `delete` takes. */
  add(item: T): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.slots.length;
    this.slots[slot] = item;
    this.count += 1;
    return slot;
  }

  /**
   * Removes `item` from its `slot` (from `add`). A slot that holds something else (the item was
   * removed before, and the slot reused) is left as it is, so removing twice does no harm.
   */
  delete(slot: number, item: T): void {
    if (this.slots[slot] !== item) return;
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.count -= 1;
  }

  get size(): number {
    return this.count;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const item of this.slots) if (item !== undefined) yield item;
  }
}
