import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';

/** The deepest JSON nesting accepted (docs/api/contract.md §2); deeper bodies are 422 `json_invalid`. */
export const MAX_JSON_DEPTH = 64;

export const NOT_UTF8 = 'JSON body is not valid UTF-8';
export const TOO_DEEP = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Whether JSON text nests deeper than `max` levels, read from its bytes before it is parsed: one
 * pass that stops at the first level too deep, so a megabyte of `[[[[` costs no parse and no
 * tree. Brackets inside strings do not count. Malformed text is left to the parser.
 */
export function bytesNestDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth -= 1;
  }
  return false;
}

/**
 * Why JSON bytes are refused before parsing (docs/api/contract.md §2): not UTF-8 (a decoder
 * would put U+FFFD in their place, and two passwords differing only there would collide), or
 * nested deeper than MAX_JSON_DEPTH (`extraLevels` for an envelope around the value, as NATS
 * requests have). Undefined when they may be parsed.
 */
export function jsonBytesProblem(bytes: Uint8Array, extraLevels = 0): string | undefined {
  if (!isUtf8(bytes)) return NOT_UTF8;
  if (bytesNestDeeperThan(bytes, MAX_JSON_DEPTH + extraLevels)) return TOO_DEEP;
  return undefined;
}

const ESCAPE = Buffer.from('\\u');
const RESERVED = ['__proto__', 'constructor', 'prototype'].map((word) => Buffer.from(word));

/**
 * Whether a string parsed from these (UTF-8) JSON bytes may hold NUL, a lone surrogate or a
 * reserved key name. In valid UTF-8 JSON, NUL and surrogates can only be written as `\u`
 * escapes, so text with no `\u` and none of the reserved words needs no walk over its values:
 * a body of 80,000 keys is not looked at key by key for them.
 */
export function mayHoldUnsafeText(bytes: Buffer): boolean {
  return bytes.includes(ESCAPE) || RESERVED.some((word) => bytes.includes(word));
}

/**
 * The most members a JSON object may have (docs/api/contract.md §2 "bounded cost"): no DTO has a
 * thousand fields, and `JSON.parse` alone spends 20–40 ms on an object of 80,000 keys.
 */
export const MAX_OBJECT_MEMBERS = 1_000;

/**
 * The key that stands for the members of a wide object that were not parsed, its value how many
 * members the object has as written (duplicate keys included). Random per process, so no client can send it; validation refuses the object it is in
 * as `too_long` (validation.pipe.ts).
 */
export const WIDE_OBJECT_KEY = `~wide-object-${randomBytes(12).toString('hex')}`;

interface Cut {
  /** The comma before the first member that is not kept. */
  start: number;
  /** The object's closing brace. */
  end: number;
  /** How many members the object has as written, duplicates included. */
  members: number;
}

/** The members past MAX_OBJECT_MEMBERS of every object, as byte ranges (outermost cuts only). */
function wideObjectCuts(bytes: Uint8Array, max: number): Cut[] {
  const cuts: Cut[] = [];
  // Per open container: whether it is an object, its members so far, its last comma, its cut.
  const objects: boolean[] = [];
  const members: number[] = [];
  const commas: number[] = [];
  const starts: number[] = [];
  let depth = -1;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      objects[depth] = byte === OPEN_BRACE;
      members[depth] = 0;
      starts[depth] = -1;
    } else if (depth < 0) continue;
    else if (byte === COMMA) commas[depth] = i;
    else if (byte === COLON && objects[depth]) {
      members[depth] += 1;
      if (members[depth] === max + 1) starts[depth] = commas[depth];
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (objects[depth] && members[depth] > max) {
        // An inner cut closes first: an outer one that covers it replaces it.
        while (cuts.length > 0 && cuts[cuts.length - 1].start > starts[depth]) cuts.pop();
        cuts.push({ start: starts[depth], end: i, members: members[depth] });
      }
      depth -= 1;
    }
  }
  return cuts;
}

/**
 * JSON text with every object of more than MAX_OBJECT_MEMBERS members cut after that many, the
 * rest replaced by one member `WIDE_OBJECT_KEY: <its members as written>`, so the parser builds
 * small objects only; the same bytes when no object is that wide. Malformed text is left to the
 * parser (a cut never mends it).
 */
export function narrowWideObjects(bytes: Buffer, max = MAX_OBJECT_MEMBERS): Buffer {
  const cuts = wideObjectCuts(bytes, max);
  if (cuts.length === 0) return bytes;
  const parts: Buffer[] = [];
  let at = 0;
  for (const cut of cuts) {
    parts.push(bytes.subarray(at, cut.start), Buffer.from(`,"${WIDE_OBJECT_KEY}":${cut.members}`));
    at = cut.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}
