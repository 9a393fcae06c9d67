/** Marks a request body that came from a form (urlencoded or multipart): every value is text. */
export const FORM_BODY = Symbol('form-body');

/** Stands in for a JSON body that failed to parse, so the validation pipe can answer 422. */
export const INVALID_JSON = Symbol('invalid-json');

export function markFormBody<T extends object>(body: T): T {
  Object.defineProperty(body, FORM_BODY, { value: true, enumerable: false });
  return body;
}

export function isFormBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as Record<symbol, unknown>)[FORM_BODY] === true;
}

/** Stands in for a JSON body nested deeper than the platform accepts (docs/api/contract.md §2). */
export const JSON_TOO_DEEP = Symbol('json-too-deep');
