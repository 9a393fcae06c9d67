/**
 * Group commit over a stream of messages (a JetStream pull): the first item is handled at once,
 * those that arrive meanwhile wait and are handled together next (at most `max` at a time), so a
 * burst costs one write per batch and a lone item waits for nothing. Reading waits while a full
 * batch is queued, so no more than about two batches are held at once. `received` is told of each
 * item as it arrives.
 *
 * Resolves once the source has ended and every item was handled. `handle` should settle its items
 * itself; a batch it fails is not retried, and the failure ends the run (at once when reading is
 * waiting, else at the next item or the end).
 */
export async function inBatches<T>(
  source: AsyncIterable<T>,
  max: number,
  handle: (batch: T[]) => Promise<void>,
  received?: (item: T) => void,
): Promise<void> {
  const queue: T[] = [];
  let draining = false;
  let drained: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  // `draining` is cleared in the same turn as the last look at the queue, so an item queued
  // after that look always starts the next drain.
  const drain = async () => {
    draining = true;
    try {
      while (queue.length > 0) await handle(queue.splice(0, max));
    } catch (error) {
      failure = { error };
    } finally {
      draining = false;
    }
  };
  for await (const item of source) {
    if (failure) throw failure.error;
    received?.(item);
    queue.push(item);
    if (!draining) drained = drain();
    if (queue.length >= max) await drained;
  }
  await drained;
  if (failure) throw failure.error;
}
