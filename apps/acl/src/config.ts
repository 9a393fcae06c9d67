import { createPrivateKey } from 'node:crypto';
import { Transform } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, Min, registerDecorator, type ValidationOptions } from 'class-validator';
import { defineConfig, platformConfig, PlatformEnv, toDuration, toInt, type ConfigOf } from '@media/core';
import { IsPassword } from './credentials/password-rule';

/** A PEM private key node can read (PKCS#8 or PKCS#1) holding an RSA key. */
function IsRsaPrivateKeyPem(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isRsaPrivateKeyPem',
      target: target.constructor,
      propertyName,
      options: { message: 'must be an RSA private key in PEM form', ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          try {
            return createPrivateKey(value.replace(/\\n/g, '\n')).asymmetricKeyType === 'rsa';
          } catch {
            return false;
          }
        },
      },
    });
}

const DURATION = 'must be a duration such as 900, 15m, 24h or 7d';

/** acl's variables: the platform's (docs/api/contract.md §6) plus signing, lifetimes and the first admin. */
export class AclEnv extends PlatformEnv {
  /** PEM RSA private key to sign with; when unset acl generates one on first start and keeps it in its database. */
  @IsOptional()
  @IsRsaPrivateKeyPem()
  JWT_PRIVATE_KEY?: string;

  /** Lifetime of a refresh token; each rotation issues a new one (within REFRESH_MAX_AGE). */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  JWT_REFRESH_TTL: number = 7 * 24 * 3_600_000;

  /**
   * How long a replaced signing key stays published after a rotation: longer than an access
   * token lives plus the JWKS cache (max-age 300 s), so tokens signed before it stay valid.
   */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  JWT_KEY_GRACE: number = 60 * 60_000;

  /**
   * The most signing keys the JWKS publishes. A rotation unpublishes the oldest beyond it (and
   * so does a start), but never one whose tokens may still be valid: such a rotation is 429.
   */
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of keys' })
  @Min(2, { message: 'must be at least 2 (the signing key and the one it replaced)' })
  JWKS_MAX_KEYS: number = 5;

  /** A session's absolute lifetime: no refresh extends it beyond this after the login. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  REFRESH_MAX_AGE: number = 30 * 24 * 3_600_000;

  /** How long a correspondent invitation can be accepted. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  INVITATION_TTL: number = 3 * 24 * 3_600_000;

  /** The first administrator, created on first start when absent (docs/api/contract.md §4a). */
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address' })
  ADMIN_EMAIL?: string;

  /** The first administrator's password (12 to 72 bytes); without it `ADMIN_EMAIL` creates no one. */
  @IsOptional()
  @IsPassword('config')
  ADMIN_PASSWORD?: string;
}

export const aclConfig = defineConfig(AclEnv, (env) => ({
  ...platformConfig(env),
  signing: {
    /** The PEM with literal `\n` sequences (as some env files carry them) turned into newlines. */
    privateKeyPem: env.JWT_PRIVATE_KEY?.replace(/\\n/g, '\n'),
    keyGrace: env.JWT_KEY_GRACE,
    maxKeys: env.JWKS_MAX_KEYS,
  },
  sessions: { refreshTtl: env.JWT_REFRESH_TTL, maxAge: env.REFRESH_MAX_AGE },
  invitations: { ttl: env.INVITATION_TTL },
  admin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
}));

/** acl's typed config. */
export type AclConfig = ConfigOf<typeof aclConfig>;
