interface Waiting<T> {
  item: T;
  done: () => void;
  failed: (error: unknown) => void;
}

/**
 * Group commit: items added while a write runs are written together by the next one (at most
 * `max` at a time), so a lone item is written at once and a burst costs one write per batch
 * instead of one per item. `add` resolves once the write holding its item succeeded and rejects
 * with that write's error.
 */
export class GroupCommit<T> {
  private readonly queue: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly max = 100,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.queue.push({ item, done, failed });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.max);
      try {
        await this.write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.done();
      } catch (error) {
        for (const waiting of batch) waiting.failed(error);
      }
    }
    this.writing = false;
  }
}
