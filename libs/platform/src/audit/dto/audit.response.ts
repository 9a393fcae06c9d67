import { ApiProperty } from '@nestjs/swagger';
import type { AuditBreakReason } from '@media/core';

const HASH = {
  type: String,
  pattern: '^[0-9a-f]{64}$',
  example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

export class AuditActorResponse {
  @ApiProperty({ enum: ['user', 'system'] })
  type!: 'user' | 'system';

  @ApiProperty({ description: 'A user id, or `<app>:<job or consumer>`', example: 'assignment:escalation' })
  id!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Edna Editor' })
  name!: string | null;
}

export class AuditResourceResponse {
  @ApiProperty({ example: 'task' })
  type!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null when unknown (a login with an unknown email)',
  })
  id!: string | null;
}

/** One sealed audit entry (CONTRACT §8.1), exactly as hashed and exported. */
export class AuditEntryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: Number, minimum: 1, description: "Place in the app's chain, from 1, no gaps" })
  seq!: number;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ example: 'assignment' })
  app!: string;

  @ApiProperty({ example: 'task.claimed' })
  action!: string;

  @ApiProperty({ type: AuditActorResponse })
  actor!: AuditActorResponse;

  @ApiProperty({ type: AuditResourceResponse })
  resource!: AuditResourceResponse;

  @ApiProperty({ type: String, nullable: true })
  request_id!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The event that caused the change',
  })
  cause!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', minItems: 2, maxItems: 2, items: {} },
    description: '`{field: [before, after]}`; secrets "[redacted]", a text over 1 KiB "sha256:<hex>"',
    example: { status: ['OPEN', 'CLAIMED'] },
  })
  changes!: Record<string, [unknown, unknown]>;

  @ApiProperty({ ...HASH, description: "The previous entry's hash (64 zeros for the first)" })
  prev_hash!: string;

  @ApiProperty({
    ...HASH,
    description: 'hex SHA-256 of prev_hash + the RFC 8785 JSON of the entry without hash',
  })
  hash!: string;
}

export class AuditHeadResponse {
  @ApiProperty({ type: Number, description: 'The last entry walked (0 when none)' })
  seq!: number;

  @ApiProperty(HASH)
  hash!: string;
}

export class AuditCheckpointSummaryResponse {
  @ApiProperty({ type: Number })
  seq!: number;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ description: 'The acl key that signed it' })
  kid!: string;
}

export class AuditBreakResponse {
  @ApiProperty({ type: Number })
  seq!: number;

  @ApiProperty({ enum: ['hash_mismatch', 'gap', 'checkpoint_mismatch', 'signature_invalid'] })
  reason!: AuditBreakReason;
}

/** What `GET .../audit/verify` found walking the whole chain. */
export class AuditVerificationResponse {
  @ApiProperty()
  valid!: boolean;

  @ApiProperty({ type: Number, description: 'Entries walked' })
  entries!: number;

  @ApiProperty({ type: AuditHeadResponse })
  head!: AuditHeadResponse;

  @ApiProperty({
    type: AuditCheckpointSummaryResponse,
    nullable: true,
    description: "The last checkpoint verified (hash against the chain, signature against acl's audit keys)",
  })
  checkpoint!: AuditCheckpointSummaryResponse | null;

  @ApiProperty({ type: AuditBreakResponse, nullable: true })
  first_break!: AuditBreakResponse | null;
}
