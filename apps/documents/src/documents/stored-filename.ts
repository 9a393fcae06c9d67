/** Longest stored filename, in characters (docs/api/contract.md §4.11). */
export const MAX_FILENAME_LENGTH = 255;

/** Used when nothing of the client's name is left. */
export const FALLBACK_FILENAME = 'file';

// C0, DEL and C1 controls, plus the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The stored `filename` (docs/api/contract.md §4.11): the client's base name (after the last `/` or `\`),
 * control characters removed, cut to 255 characters (code points, never half a surrogate pair).
 * It is only ever a label: storage keys are generated.
 */
export function storedFilename(clientName: string | undefined | null): string {
  const base = (clientName ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');
  const cut = Array.from(clean).slice(0, MAX_FILENAME_LENGTH).join('');
  return cut.length > 0 ? cut : FALLBACK_FILENAME;
}

// type "/" subtype, each an RFC 9110 token, with optional parameters.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\r\\n]*"))*$`);

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The part's declared content type, kept when it is a well-formed media type of sane length. */
export function storedContentType(declared: string | undefined | null): string {
  const value = (declared ?? '').trim();
  return value.length > 0 && value.length <= 255 && MEDIA_TYPE.test(value) ? value : DEFAULT_CONTENT_TYPE;
}
