import { ApiProperty } from '@nestjs/swagger';
import { PublicJwkResponse } from '../../keys/dto/keys.response';
import type { AuditKeysView } from '../audit-keys.view';

/** Every RS256 key that ever signed an audit checkpoint (a JWKS, RFC 7517). */
export class AuditKeysResponse implements AuditKeysView {
  @ApiProperty({ type: [PublicJwkResponse] }) keys!: PublicJwkResponse[];
}
