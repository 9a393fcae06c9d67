/** Marks a request body that came from a form (urlencoded or multipart): every value is text. */
export const FORM_BODY = Symbol('form-body');

export function markFormBody<T extends object>(body: T): T {
  Object.defineProperty(body, FORM_BODY, { value: true, enumerable: false });
  return body;
}

export function isFormBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as Record<symbol, unknown>)[FORM_BODY] === true;
}

/**
 * Stands in for a JSON body that was refused while it was read (malformed, not UTF-8, nested
 * deeper than the platform accepts: docs/api/contract.md §2), so that it is answered 422
 * `json_invalid` at `["body"]` once the caller's permissions are checked.
 */
export class InvalidJsonBody {
  constructor(readonly msg: string) {}
}

/** JSON bodies whose bytes showed that no string in them can hold unsafe text (json-bytes.ts). */
const checkedText = new WeakSet<object>();

export function markCheckedText(body: unknown): void {
  if (typeof body === 'object' && body !== null) checkedText.add(body);
}

export function hasCheckedText(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checkedText.has(body);
}
