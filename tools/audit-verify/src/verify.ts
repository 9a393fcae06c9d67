import { compactVerify, decodeProtectedHeader } from 'jose';
import {
  ChainWalker,
  GENESIS_HASH,
  type AuditBreak,
  type AuditCheckpoint,
  type AuditCheckpointLine,
  type AuditEntry,
} from '@media/core';
import type { AuditKeys } from './keys';

/** What stops a walk: a break of the chain (CONTRACT §8.3) or a line that is neither an entry nor a checkpoint. */
export interface ExportBreak {
  seq: number;
  reason: AuditBreak['reason'] | 'malformed';
  /** 1-based line of the export where it was found. */
  line: number;
  detail: string;
}

/** The outcome of one export's walk, shaped like an app's `GET .../audit/verify` answer plus what an offline check adds. */
export interface VerifyReport {
  valid: boolean;
  app: string | null;
  entries: number;
  /** Where the walk began: seq 1 from the genesis hash, or right after a first-line checkpoint. */
  start: { seq: number; anchored_by_checkpoint: boolean };
  head: { seq: number; hash: string };
  /** Checkpoints whose signature verified. */
  checkpoints: number;
  /** The last checkpoint verified. */
  checkpoint: { seq: number; at: string; kid: string } | null;
  /** The keys those signatures were made with. */
  kids: string[];
  first_break: ExportBreak | null;
}

export interface VerifyOptions {
  /**
   * Accept an export that starts at a later entry without a checkpoint before it, trusting that
   * entry's `prev_hash`: an export of `from_seq` onwards. Off by default, so a deleted first line
   * is a gap.
   */
  partial?: boolean;
}

type Line = { entry: AuditEntry } | { checkpoint: AuditCheckpointLine } | { malformed: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads one export line: an entry, a checkpoint line, or why it is neither. */
function parseLine(text: string): Line {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { malformed: 'not JSON' };
  }
  if (!isObject(value)) return { malformed: 'not a JSON object' };
  if ('checkpoint' in value) {
    const { checkpoint, jws } = value;
    const valid =
      isObject(checkpoint) &&
      typeof checkpoint.app === 'string' &&
      Number.isSafeInteger(checkpoint.seq) &&
      typeof checkpoint.hash === 'string' &&
      typeof checkpoint.at === 'string' &&
      typeof jws === 'string';
    return valid
      ? { checkpoint: value as unknown as AuditCheckpointLine }
      : { malformed: 'a checkpoint line is {"checkpoint": {app, seq, hash, at}, "jws"}' };
  }
  const valid =
    Number.isSafeInteger(value.seq) &&
    typeof value.app === 'string' &&
    typeof value.prev_hash === 'string' &&
    typeof value.hash === 'string';
  return valid
    ? { entry: value as unknown as AuditEntry }
    : { malformed: 'an entry line has at least seq, app, prev_hash and hash' };
}

/**
 * Checks a checkpoint's compact JWS: RS256, a `kid` the audit keys hold, a signature that
 * verifies, and a payload that is this very checkpoint. Answers why not, or null.
 */
async function signatureProblem(line: AuditCheckpointLine, keys: AuditKeys): Promise<string | null> {
  let kid: unknown;
  try {
    const header = decodeProtectedHeader(line.jws);
    if (header.alg !== 'RS256') return `the JWS is ${String(header.alg)}, not RS256`;
    kid = header.kid;
  } catch {
    return 'the jws is not a compact JWS';
  }
  if (typeof kid !== 'string') return 'the JWS names no kid';
  const key = await keys.key(kid);
  if (!key) return `no key ${kid} in the audit keys`;
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(line.jws, key, { algorithms: ['RS256'] }));
  } catch {
    return `the signature does not verify with key ${kid}`;
  }
  let signed: Partial<AuditCheckpoint>;
  try {
    signed = JSON.parse(new TextDecoder().decode(payload)) as Partial<AuditCheckpoint>;
  } catch {
    return 'the signed payload is not JSON';
  }
  const { app, seq, hash, at } = line.checkpoint;
  const same = signed.app === app && signed.seq === seq && signed.hash === hash && signed.at === at;
  return same ? null : 'the JWS signs another checkpoint';
}

/**
 * Verifies an export line by line in constant memory (CONTRACT §8.3): the hash chain with
 * `ChainWalker`, each checkpoint against the chain and its signature against the audit keys.
 * Stops at the first break.
 */
export class ExportVerifier {
  private walker?: ChainWalker;
  private app: string | null = null;
  private lineNo = 0;
  private broken: ExportBreak | null = null;
  private start = { seq: 1, anchored_by_checkpoint: false };
  private verified = 0;
  private last: VerifyReport['checkpoint'] = null;
  private readonly kids = new Set<string>();

  constructor(
    private readonly keys: AuditKeys,
    private readonly options: VerifyOptions = {},
  ) {}

  /** Feeds the next line; answers the first break so far (null while the export holds). */
  async line(text: string): Promise<ExportBreak | null> {
    this.lineNo += 1;
    if (this.broken) return this.broken;
    if (text.trim() === '') return null;
    const line = parseLine(text);
    if ('malformed' in line) return this.fail(this.nextSeq(), 'malformed', line.malformed);
    const app = 'entry' in line ? line.entry.app : line.checkpoint.checkpoint.app;
    this.app ??= app;
    if (app !== this.app)
      return this.fail(this.nextSeq(), 'malformed', `a line of ${app} in an export of ${this.app}`);
    return 'entry' in line ? this.entry(line.entry) : this.checkpoint(line.checkpoint);
  }

  private nextSeq(): number {
    return this.walker ? this.walker.head.seq + 1 : this.start.seq;
  }

  private entry(entry: AuditEntry): ExportBreak | null {
    if (!this.walker) {
      const partial = this.options.partial && entry.seq > 1;
      this.start = { seq: partial ? entry.seq : 1, anchored_by_checkpoint: false };
      this.walker = new ChainWalker(
        partial ? { seq: entry.seq, prevHash: entry.prev_hash } : { seq: 1, prevHash: GENESIS_HASH },
      );
    }
    const found = this.walker.next(entry);
    return found ? this.fail(found.seq, found.reason, `entry at line ${this.lineNo}`) : null;
  }

  private async checkpoint(line: AuditCheckpointLine): Promise<ExportBreak | null> {
    const { checkpoint } = line;
    // A checkpoint before any entry anchors an export that starts after it (retention pruned the
    // entries before): the chain goes on from its seq and hash once its signature holds.
    const anchoring = !this.walker;
    if (!anchoring) {
      const found = this.walker!.checkpoint(checkpoint);
      if (found) return this.fail(found.seq, found.reason, `checkpoint at line ${this.lineNo}`);
    }
    const problem = await signatureProblem(line, this.keys);
    if (problem) return this.fail(checkpoint.seq, 'signature_invalid', problem);
    if (anchoring) {
      this.start = { seq: checkpoint.seq + 1, anchored_by_checkpoint: true };
      this.walker = new ChainWalker({ seq: checkpoint.seq + 1, prevHash: checkpoint.hash });
    }
    const { kid } = decodeProtectedHeader(line.jws) as { kid: string };
    this.verified += 1;
    this.kids.add(kid);
    this.last = { seq: checkpoint.seq, at: checkpoint.at, kid };
    return null;
  }

  private fail(seq: number, reason: ExportBreak['reason'], detail: string): ExportBreak {
    this.broken = { seq, reason, line: this.lineNo, detail };
    return this.broken;
  }

  report(): VerifyReport {
    const head = this.walker?.head ?? { seq: this.start.seq - 1, hash: GENESIS_HASH };
    return {
      valid: this.broken === null,
      app: this.app,
      entries: this.walker?.entries ?? 0,
      start: this.start,
      head,
      checkpoints: this.verified,
      checkpoint: this.last,
      kids: [...this.kids],
      first_break: this.broken,
    };
  }
}

/** Walks every line of `lines` (stopping reading at the first break) and reports. */
export async function verifyExport(
  lines: AsyncIterable<string>,
  keys: AuditKeys,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const verifier = new ExportVerifier(keys, options);
  for await (const text of lines) {
    if (await verifier.line(text)) break;
  }
  return verifier.report();
}
