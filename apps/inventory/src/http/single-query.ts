import { ValidationFailed } from '@media/platform';
import type { Request } from 'express';

/**
 * CONTRACT §2: a scalar query parameter given twice is a 422 at its loc. The platform's pipe
 * keeps the last value of a repeated scalar, so routes check their raw query here (a platform
 * change would make this unnecessary).
 */
export function rejectRepeatedQuery(req: Request, names: readonly string[]): void {
  const issues = names
    .filter((name) => Array.isArray(req.query[name]))
    .map((name) => ({ loc: ['query', name], msg: 'Input should be a single value', type: 'value_error' }));
  if (issues.length) throw new ValidationFailed(issues);
}
