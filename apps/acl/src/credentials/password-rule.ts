import { applyDecorators } from '@nestjs/common';
import { IsString } from 'class-validator';
import { contractConstraint } from '@media/platform';

export const PASSWORD_MIN_BYTES = 12;
export const PASSWORD_MAX_BYTES = 72;

function byteBound(name: string, type: string, message: string, test: (bytes: number) => boolean) {
  return contractConstraint(
    name,
    type,
    message,
    (value) => typeof value !== 'string' || test(Buffer.byteLength(value, 'utf8')),
  );
}

/**
 * The one password rule: 12..72 bytes of UTF-8 (72: what bcrypt would read; kept so hashes stay
 * portable). Users' and invitations' bodies and the first administrator's ADMIN_PASSWORD use it.
 */
export const IsPassword = () =>
  applyDecorators(
    IsString(),
    byteBound(
      'passwordMinBytes',
      'string_too_short',
      `String should have at least ${PASSWORD_MIN_BYTES} bytes`,
      (n) => n >= PASSWORD_MIN_BYTES,
    ),
    byteBound(
      'passwordMaxBytes',
      'string_too_long',
      `String should have at most ${PASSWORD_MAX_BYTES} bytes`,
      (n) => n <= PASSWORD_MAX_BYTES,
    ),
  );
