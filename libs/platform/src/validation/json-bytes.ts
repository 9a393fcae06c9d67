import { isUtf8 } from 'node:buffer';

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
