import { IsISO8601 } from 'class-validator';
import type { AclSubjects, RpcRequest } from '@media/contracts';
import { Optional } from '@media/kernel';

/** Payload of `acl.users.token-versions` (loc starts at `data`). */
export class TokenVersionsRequest implements RpcRequest<typeof AclSubjects.usersTokenVersions> {
  @Optional()
  @IsISO8601({ strict: true })
  since?: string;
}
