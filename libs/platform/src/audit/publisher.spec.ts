import type { AuditEntry } from '@media/core';
import { SealedEntries } from './publisher';

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
