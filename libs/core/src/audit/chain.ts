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

/** The fields of an entry but `hash`, in RFC 8785 order (UTF-16 code units; all ASCII here). */
const HASHED_FIELDS = [
  'action',
  'actor',
  'app',
  'at',
  'cause',
  'changes',
  'id',
  'prev_hash',
  'request_id',
  'resource',
  'seq',
] as const;

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/**
 * The RFC 8785 text of an entry without `hash`, written field by field when the entry has exactly
 * the §8.1 shape (what verifying a long chain spends its time on: about four times faster than
 * the general canonicalizer), which only `changes` still goes through. RFC 8785 serializes
 * strings and integers exactly as `JSON.stringify` does. Any other shape takes the general way.
 */
function canonicalEntry(entry: Omit<AuditEntry, 'hash'> | AuditEntry): string {
  const { hash: _hash, ...hashed } = entry as AuditEntry;
  const keys = Object.keys(hashed);
  const { actor, resource } = hashed;
  const plain =
    keys.length === HASHED_FIELDS.length &&
    HASHED_FIELDS.every((key) => key in hashed) &&
    [hashed.action, hashed.app, hashed.at, hashed.id, hashed.prev_hash].every(isText) &&
    isTextOrNull(hashed.cause) &&
    isTextOrNull(hashed.request_id) &&
    Number.isSafeInteger(hashed.seq) &&
    typeof actor === 'object' &&
    actor !== null &&
    Object.keys(actor).length === 3 &&
    isText(actor.id) &&
    isTextOrNull(actor.name) &&
    isText(actor.type) &&
    typeof resource === 'object' &&
    resource !== null &&
    Object.keys(resource).length === 2 &&
    isTextOrNull(resource.id) &&
    isText(resource.type);
  if (!plain) return canonicalize(hashed);
  const text = JSON.stringify;
  return (
    `{"action":${text(hashed.action)},` +
    `"actor":{"id":${text(actor.id)},"name":${text(actor.name)},"type":${text(actor.type)}},` +
    `"app":${text(hashed.app)},"at":${text(hashed.at)},"cause":${text(hashed.cause)},` +
    `"changes":${canonicalize(hashed.changes)},"id":${text(hashed.id)},` +
    `"prev_hash":${text(hashed.prev_hash)},"request_id":${text(hashed.request_id)},` +
    `"resource":{"id":${text(resource.id)},"type":${text(resource.type)}},"seq":${text(hashed.seq)}}`
  );
}

/** `hex(SHA-256(prev_hash + JCS(entry without "hash")))`. */
export function entryHash(entry: Omit<AuditEntry, 'hash'> | AuditEntry): string {
  return createHash('sha256').update(entry.prev_hash).update(canonicalEntry(entry)).digest('hex');
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
