import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';

/** The first entry's `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditActor =
  | { type: 'user'; id: string; name: string | null }
  | { type: 'system'; id: string; name: string | null };

/** One audit entry exactly as listed, exported and hashed (CONTRACT §8.1). */
export interface AuditEntry {
  id: string;
  seq: number;
  at: string;
  app: string;
  action: string;
  actor: AuditActor;
  resource: { type: string; id: string | null };
  request_id: string | null;
  cause: string | null;
  changes: Record<string, [unknown, unknown]>;
  prev_hash: string;
  hash: string;
}

/** A checkpoint as signed by acl: the chain's head at one moment. */
export interface AuditCheckpoint {
  app: string;
  seq: number;
  hash: string;
  at: string;
}

/** One checkpoint line of an export: the checkpoint and its compact JWS (RS256, with `kid`). */
export interface AuditCheckpointLine {
  checkpoint: AuditCheckpoint;
  jws: string;
}

export type AuditBreakReason = 'hash_mismatch' | 'gap' | 'checkpoint_mismatch' | 'signature_invalid';

export interface AuditBreak {
  seq: number;
  reason: AuditBreakReason;
}

/** `hex(SHA-256(prev_hash + JCS(entry without "hash")))`. */
export function entryHash(entry: Omit<AuditEntry, 'hash'> | AuditEntry): string {
  const { hash: _hash, ...hashed } = entry as AuditEntry;
  return createHash('sha256').update(entry.prev_hash).update(canonicalize(hashed)).digest('hex');
}

/**
 * Walks a chain in `seq` order, one entry at a time, so a million entries verify in constant
 * memory. `start` is where the walk begins: seq 1 with the genesis hash, or (after retention
 * pruned the oldest entries) a kept checkpoint's seq + 1 and hash.
 */
export class ChainWalker {
  private expectedSeq: number;
  private prevHash: string;
  private seen = 0;
  private broken: AuditBreak | null = null;

  constructor(start: { seq: number; prevHash: string } = { seq: 1, prevHash: GENESIS_HASH }) {
    this.expectedSeq = start.seq;
    this.prevHash = start.prevHash;
  }

  /** Feeds the next entry; answers the first break found so far (null while the chain holds). */
  next(entry: AuditEntry): AuditBreak | null {
    if (this.broken) return this.broken;
    this.seen += 1;
    if (entry.seq !== this.expectedSeq) {
      this.broken = { seq: Math.min(entry.seq, this.expectedSeq), reason: 'gap' };
    } else if (entry.prev_hash !== this.prevHash || entryHash(entry) !== entry.hash) {
      this.broken = { seq: entry.seq, reason: 'hash_mismatch' };
    } else {
      this.expectedSeq += 1;
      this.prevHash = entry.hash;
    }
    return this.broken;
  }

  /**
   * Checks a checkpoint against the chain walked so far: its seq must be the last entry seen
   * (checkpoints are exported right after the entry they seal) and its hash that entry's hash.
   */
  checkpoint(checkpoint: AuditCheckpoint): AuditBreak | null {
    if (this.broken) return this.broken;
    if (checkpoint.seq !== this.expectedSeq - 1 || checkpoint.hash !== this.prevHash)
      this.broken = { seq: checkpoint.seq, reason: 'checkpoint_mismatch' };
    return this.broken;
  }

  /** Records a break found outside the chain itself (a checkpoint's signature). */
  fail(failure: AuditBreak): AuditBreak {
    this.broken ??= failure;
    return this.broken;
  }

  get entries(): number {
    return this.seen;
  }

  get head(): { seq: number; hash: string } {
    return { seq: this.expectedSeq - 1, hash: this.prevHash };
  }

  get firstBreak(): AuditBreak | null {
    return this.broken;
  }
}
