import type { JsMsg } from '@nats-io/jetstream';
import type { AuditEntry } from '@media/core';
import type { AclConfig } from '../config';
import { AuditCopyConsumer } from './audit-copy.consumer';
import type { AuditCopyService } from './audit-copy.service';

/** A sealed entry of assignment at `seq` (the hashes are not checked by the consumer). */
const entry = (seq: number): AuditEntry => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  seq,
  at: '2026-11-27T12:00:00.000Z',
  app: 'assignment',
  action: 'task.claimed',
  actor: { type: 'user', id: 'u', name: 'Ana' },
  resource: { type: 'task', id: 't' },
  request_id: null,
  cause: null,
  changes: {},
  prev_hash: '0'.repeat(64),
  hash: 'a'.repeat(64),
});

/** A stand-in JetStream message carrying `payload`, recording how it was settled. */
function message(payload: unknown) {
  const settled: string[] = [];
  const msg = {
    subject: 'audit.assignment',
    seq: 1,
    info: { deliveryCount: 1 },
    json: () => (typeof payload === 'string' ? JSON.parse(payload) : payload),
    ack: () => settled.push('ack'),
    nak: () => settled.push('nak'),
    term: () => settled.push('term'),
  };
  return { msg: msg as unknown as JsMsg, settled };
}

/** A stand-in copy store: refuses any write that holds `poison`, records every write. */
function standInCopy(poison: number) {
  const writes: number[][] = [];
  const store = (entries: readonly AuditEntry[]) => {
    writes.push(entries.map((e) => e.seq));
    return entries.some((e) => e.seq === poison) ? Promise.reject(new Error('refused')) : Promise.resolve();
  };
  return { copy: { store } as unknown as AuditCopyService, writes };
}

describe('AuditCopyConsumer.handleBatch (a stand-in copy store and stand-in messages)', () => {
  it('stores a batch in one write and acks every message after it', async () => {
    const { copy, writes } = standInCopy(-1);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const messages = [1, 2, 3].map((seq) => message(entry(seq)));
    await consumer.handleBatch(messages.map((m) => m.msg));
    expect(writes).toEqual([[1, 2, 3]]);
    expect(messages.map((m) => m.settled)).toEqual([['ack'], ['ack'], ['ack']]);
  });

  it('stores each entry on its own when the batch fails: the others acked, the failing one redelivered', async () => {
    const { copy, writes } = standInCopy(2);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const messages = [1, 2, 3].map((seq) => message(entry(seq)));
    await consumer.handleBatch(messages.map((m) => m.msg));
    expect(writes).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(messages.map((m) => m.settled)).toEqual([['ack'], ['nak'], ['ack']]);
  });

  it('reads runs (arrays of entries) and single entries alike, all stored in one write', async () => {
    const { copy, writes } = standInCopy(-1);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const messages = [message([entry(1), entry(2), entry(3)]), message(entry(4)), message([entry(5)])];
    await consumer.handleBatch(messages.map((m) => m.msg));
    expect(writes).toEqual([[1, 2, 3, 4, 5]]);
    expect(messages.map((m) => m.settled)).toEqual([['ack'], ['ack'], ['ack']]);
  });

  it('stores each run on its own when the batch fails, a failing run entry by entry: only that run redelivered', async () => {
    const { copy, writes } = standInCopy(4);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const messages = [message([entry(1), entry(2)]), message([entry(3), entry(4)]), message([entry(5)])];
    await consumer.handleBatch(messages.map((m) => m.msg));
    // Entry 3 is in the copy even though its run is redelivered for entry 4.
    expect(writes).toEqual([[1, 2, 3, 4, 5], [1, 2], [3, 4], [3], [4], [5]]);
    expect(messages.map((m) => m.settled)).toEqual([['ack'], ['nak'], ['ack']]);
  });

  it('drops a malformed entry of a run and stores the others; a run with none is terminated', async () => {
    const { copy, writes } = standInCopy(-1);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const mixed = message([entry(1), { ...entry(2), seq: -2 }, entry(3)]);
    const empty = message([]);
    const misfiled = message([{ ...entry(4), app: 'inventory' }]);
    await consumer.handleBatch([mixed.msg, empty.msg, misfiled.msg]);
    expect(writes).toEqual([[1, 3]]);
    expect([mixed.settled, empty.settled, misfiled.settled]).toEqual([['ack'], ['term'], ['term']]);
  });

  it('stores a large batch a statement per 1,000 entries, acking after the last', async () => {
    const { copy, writes } = standInCopy(-1);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const runs = Array.from({ length: 12 }, (_, r) =>
      Array.from({ length: 200 }, (_, i) => entry(r * 200 + i + 1)),
    );
    const messages = runs.map((run) => message(run));
    await consumer.handleBatch(messages.map((m) => m.msg));
    expect(writes.map((seqs) => [seqs[0], seqs.length])).toEqual([
      [1, 1000],
      [1001, 1000],
      [2001, 400],
    ]);
    expect(messages.every((m) => m.settled.join() === 'ack')).toBe(true);
  });

  it('drops a malformed message (terminated, never stored) and stores the rest', async () => {
    const { copy, writes } = standInCopy(-1);
    const consumer = new AuditCopyConsumer({} as AclConfig, copy);
    const good = message(entry(5));
    const bad = message('not json');
    await consumer.handleBatch([bad.msg, good.msg]);
    expect(writes).toEqual([[5]]);
    expect([bad.settled, good.settled]).toEqual([['term'], ['ack']]);
  });
});
