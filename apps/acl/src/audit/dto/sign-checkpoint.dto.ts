import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { SERVICE_NAMES, type AclSubjects, type RpcRequest } from '@media/contracts';
import { IsDateTime } from '@media/kernel';

/** Payload of `acl.audit.sign-checkpoint` (loc starts at `data`): one app's chain head. */
export class SignCheckpointRequest implements RpcRequest<typeof AclSubjects.auditSignCheckpoint> {
  @IsIn(SERVICE_NAMES)
  app!: string;

  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  seq!: number;

  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'hash must be 64 lowercase hex digits' })
  hash!: string;

  @IsDateTime()
  at!: string;
}
