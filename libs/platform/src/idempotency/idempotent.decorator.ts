import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENT = 'http:idempotent';

/**
 * The route takes an optional `Idempotency-Key` (docs/api/contract.md §7.1): a retry with the same
 * key and body gets the first 2xx answer again instead of doing the work twice. The platform's
 * IdempotencyInterceptor does the rest; the OpenAPI document shows the header.
 */
export const Idempotent = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the same key with the same body within IDEMPOTENCY_TTL gets the first ' +
        '2xx answer again (with `Idempotent-Replayed: true`) instead of being processed twice; the ' +
        'same key with another body is 422, and while the first is processed 409 ' +
        '`idempotency_key_in_flight` with `Retry-After: 1`.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    }),
  );
