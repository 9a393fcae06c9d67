import { contractConstraint } from '@media/platform';

/** NUL or a lone UTF-16 surrogate (CONTRACT §2: 422 `value_error`). */
export function hasForbiddenCharacters(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

/** Refuses strings carrying NUL or invalid Unicode. */
export const IsCleanText = () =>
  contractConstraint(
    'isCleanText',
    'value_error',
    'String should not contain NUL characters or invalid Unicode',
    (value) => typeof value !== 'string' || !hasForbiddenCharacters(value),
  );
