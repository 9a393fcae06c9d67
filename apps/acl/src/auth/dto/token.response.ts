import { ApiProperty } from '@nestjs/swagger';
import type { TokenPair } from '../auth.view';

/** The token pair of docs/api/contract.md §1. */
export class TokenPairResponse implements TokenPair {
  @ApiProperty({ description: 'RS256 JWT; send as `Authorization: Bearer <token>`' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ description: 'Seconds until the access token expires' }) expires_in!: number;
  @ApiProperty({ description: 'Single use: a refresh answers a new pair' }) refresh_token!: string;
}
