import { IsUUID } from 'class-validator';
import { Optional } from '@media/kernel';

/** `POST /auth/revoke`: without `user_id`, the caller's own tokens. */
export class RevokeRequestDto {
  /** The user whose tokens end (needs `users:admin`). */
  @Optional()
  @IsUUID()
  user_id?: string;
}
