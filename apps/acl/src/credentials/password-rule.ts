import { applyDecorators } from '@nestjs/common';
import { IsString } from 'class-validator';
import { contractConstraint } from '@media/kernel';

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
 * portable). Users' and invitations' bodies and the first administrator's ADMIN_PASSWORD use it;
 * `config` words the boot error as the other variables' (`ADMIN_PASSWORD must be 12 to 72 bytes long`).
 */
export const IsPassword = (wording: 'body' | 'config' = 'body') =>
  applyDecorators(
    IsString(),
    byteBound(
      'passwordMinBytes',
      'string_too_short',
      wording === 'config'
        ? `must be ${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes long`
        : `String should have at least ${PASSWORD_MIN_BYTES} bytes`,
      (n) => n >= PASSWORD_MIN_BYTES,
    ),
    byteBound(
      'passwordMaxBytes',
      'string_too_long',
      wording === 'config'
        ? `must be ${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes long`
        : `String should have at most ${PASSWORD_MAX_BYTES} bytes`,
      (n) => n <= PASSWORD_MAX_BYTES,
    ),
  );
