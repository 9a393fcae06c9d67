import type { OpenAPIObject } from '@nestjs/swagger';

/** Marks a public operation in the OpenAPI document; `declareSecurity` turns it into `security: []`. */
export const PUBLIC_EXTENSION = 'x-public';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Says on every operation whether it needs a token, as the global guard decides: `@Public()`
 * ones `security: []`, every other one the bearer scheme (also the document's default).
 */
export function declareSecurity(document: OpenAPIObject, scheme = 'bearer'): OpenAPIObject {
  document.security = [{ [scheme]: [] }];
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Record<string, unknown>>)) {
      if (!METHODS.includes(method)) continue;
      if (operation[PUBLIC_EXTENSION] === true) {
        delete operation[PUBLIC_EXTENSION];
        operation.security = [];
      } else {
        operation.security = [{ [scheme]: [] }];
      }
    }
  }
  return document;
}
