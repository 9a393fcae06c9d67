import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { contractConstraint } from './decorators';

// eslint-disable-next-line no-control-regex -- NUL is exactly what is refused
const UNCLEAN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text PostgreSQL can store as given: no NUL and no lone surrogate (docs/api/contract.md §2). */
export function isCleanText(value: string): boolean {
  return !UNCLEAN.test(value);
}

/** Refuses NUL and lone surrogates with `value_error` (docs/api/contract.md §2). */
export const IsCleanText = () =>
  contractConstraint(
    'isCleanText',
    'value_error',
    'String should not contain NUL characters or invalid Unicode',
    (value) => typeof value !== 'string' || isCleanText(value),
  );

/** Trims surrounding whitespace of a string (DRF's CharField default), leaves anything else. */
export const Trim = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
  );
