import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-docs';

export const IDEMPOTENT = 'http:idempotent';

/** Where @nestjs/swagger keeps a method's documented responses (`DECORATORS.API_RESPONSE`). */
const API_RESPONSES = 'swagger/apiResponse';

/**
 * Documents the in-flight 409 unless the route documents a 409 of its own (whose description
 * then stays; the body schema is the same `{detail, code}`).
 */
const documentInFlight: MethodDecorator = (target, key, descriptor) => {
  const responses = Reflect.getMetadata(API_RESPONSES, descriptor.value as object) as
    | Record<string, unknown>
    | undefined;
  if (responses?.['409']) return descriptor;
  return ApiErrors([409, 'A request with this Idempotency-Key is still being processed (Retry-After: 1)'])(
    target,
    key,
    descriptor,
  );
};

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
    documentInFlight,
  );
