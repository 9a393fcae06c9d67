import type { AuditEntry } from '@media/core';
import { auditRuns, SealedEntries } from './publisher';

/** Entries with only the seq that matters here. */
const sealed = (...seqs: number[]) => seqs.map((seq) => ({ seq }) as AuditEntry);
const seqsOf = (entries: AuditEntry[]) => entries.map((entry) => entry.seq);

describe('SealedEntries (what the sealer hands the audit publisher)', () => {
  it('gives the run right after the resume point, at most the limit', () => {
    const handed = new SealedEntries(100);
    handed.add(sealed(4, 5, 6, 7));
    expect(seqsOf(handed.after(3, 2))).toEqual([4, 5]);
    expect(seqsOf(handed.after(5, 10))).toEqual([6, 7]);
  });

  it('forgets what the stream has already, published here or by another replica', () => {
    const handed = new SealedEntries(100);
    handed.add(sealed(1, 2, 3));
    expect(seqsOf(handed.after(2, 10))).toEqual([3]);
    expect(seqsOf(handed.after(3, 10))).toEqual([]);
    handed.add(sealed(4));
    expect(seqsOf(handed.after(3, 10))).toEqual([4]);
  });

  it('gives nothing when another replica sealed what comes first, and stops at a gap', () => {
    const handed = new SealedEntries(100);
    handed.add(sealed(1, 2));
    // Another replica sealed 3 and 4; this one 5 and 6.
    handed.add(sealed(5, 6));
    expect(seqsOf(handed.after(0, 10))).toEqual([1, 2]);
    expect(seqsOf(handed.after(2, 10))).toEqual([]);
    // Once 3 and 4 are published (read from the table), the run goes on from memory.
    expect(seqsOf(handed.after(4, 10))).toEqual([5, 6]);
  });

  it('keeps no more than its bound: a pass that would exceed it is read back instead', () => {
    const handed = new SealedEntries(3);
    handed.add(sealed(1, 2));
    handed.add(sealed(3, 4));
    expect(seqsOf(handed.after(0, 10))).toEqual([1, 2]);
    expect(seqsOf(handed.after(2, 10))).toEqual([]);
  });
});

describe('auditRuns (the AUDIT messages of a pass)', () => {
  /** Entries of the §8.1 shape whose JSON text is about `size` bytes. */
  const entries = (first: number, count: number, size = 100) =>
    Array.from(
      { length: count },
      (_, i) => ({ seq: first + i, changes: { note: 'x'.repeat(size) } }) as unknown as AuditEntry,
    );

  it('carries consecutive entries as one JSON array, named by its first and last seq', () => {
    const batch = entries(7, 3);
    const [run, ...more] = auditRuns(batch);
    expect(more).toEqual([]);
    expect(run).toMatchObject({ first: 7, last: 9, entries: 3 });
    expect(JSON.parse(run.body)).toEqual(batch);
  });

  it('splits where a body would exceed the bound, every entry in exactly one run, in order', () => {
    const batch = entries(1, 10, 100);
    const runs = auditRuns(batch, 450);
    expect(runs.map((run) => [run.first, run.last])).toEqual([
      [1, 3],
      [4, 6],
      [7, 9],
      [10, 10],
    ]);
    for (const run of runs) expect(Buffer.byteLength(run.body)).toBeLessThanOrEqual(450);
    expect(runs.flatMap((run) => JSON.parse(run.body) as AuditEntry[])).toEqual(batch);
  });

  it('sends an entry larger than the bound alone, and nothing for no entries', () => {
    const runs = auditRuns([...entries(1, 1, 10), ...entries(2, 1, 1000), ...entries(3, 1, 10)], 500);
    expect(runs.map((run) => [run.first, run.last])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(auditRuns([])).toEqual([]);
  });
});
