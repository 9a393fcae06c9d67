import { ApiProperty } from '@nestjs/swagger';
import type { AuditActor } from '@media/platform';
import type { AuditCopyView } from '../audit-copy.view';

export class AuditCopyActorResponse {
  @ApiProperty({ enum: ['user', 'system'] }) type!: 'user' | 'system';
  @ApiProperty({ description: 'A user id, or `<app>:<job or consumer>`' }) id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
}

export class AuditCopyResourceResponse {
  @ApiProperty({ example: 'user' }) type!: string;
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
}

/** One audit entry of any app (CONTRACT §8.1), as its app hashed it. */
export class AuditCopyEntryResponse implements AuditCopyView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Position in its app’s chain, from 1' }) seq!: number;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ example: 'acl' }) app!: string;
  @ApiProperty({ example: 'user.updated' }) action!: string;
  @ApiProperty({ type: AuditCopyActorResponse }) actor!: AuditActor;
  @ApiProperty({ type: AuditCopyResourceResponse }) resource!: AuditCopyResourceResponse;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The event id that caused it' })
  cause!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: {}, minItems: 2, maxItems: 2 },
    description: '`{"<field>": [before, after]}`',
  })
  changes!: Record<string, [unknown, unknown]>;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' }) prev_hash!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' }) hash!: string;
}
