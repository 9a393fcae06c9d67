import { ApiProperty } from '@nestjs/swagger';
import type { PublicJwk, RotationResult } from '../key.view';

/** One published RS256 public key (RFC 7517). */
export class PublicJwkResponse implements PublicJwk {
  @ApiProperty({ enum: ['RSA'] }) kty!: 'RSA';
  @ApiProperty({ description: 'Modulus, base64url' }) n!: string;
  @ApiProperty({ description: 'Exponent, base64url' }) e!: string;
  @ApiProperty({ description: 'RFC 7638 thumbprint' }) kid!: string;
  @ApiProperty({ enum: ['RS256'] }) alg!: 'RS256';
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
}

export class JwksResponse {
  @ApiProperty({ type: [PublicJwkResponse] }) keys!: PublicJwkResponse[];
}

export class RetiringKeyResponse {
  @ApiProperty() kid!: string;
  @ApiProperty({ format: 'date-time', description: 'When it stops being published' }) retires_at!: string;
}

/** The new signing key and the keys it replaces. */
export class RotationResponse implements RotationResult {
  @ApiProperty({ description: 'The new key, published now' }) kid!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'When the new key starts signing: once every acl replica publishes it',
  })
  signs_from!: string;
  @ApiProperty({
    type: [RetiringKeyResponse],
    description: 'The keys it replaces (they sign until signs_from)',
  })
  retiring!: RetiringKeyResponse[];
  @ApiProperty({ type: [String], description: 'Keys no longer published (the oldest beyond JWKS_MAX_KEYS)' })
  unpublished!: string[];
}
