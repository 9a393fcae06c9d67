import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQuery } from '@media/http';
import { IsDateTime, Optional } from '@media/kernel';

/** `GET .../audit`: sealed entries, newest first (CONTRACT §8.3), each filter narrowing the list. */
export class ListAuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: "The changed resource's type, e.g. `task`", example: 'task' })
  @Optional()
  @IsString()
  @MaxLength(255)
  resource_type?: string;

  @ApiPropertyOptional({ description: "The changed resource's id" })
  @Optional()
  @IsString()
  @MaxLength(255)
  resource_id?: string;

  @ApiPropertyOptional({ description: 'A user id, or `<app>:<job or consumer>` for the system' })
  @Optional()
  @IsString()
  @MaxLength(255)
  actor_id?: string;

  @ApiPropertyOptional({ description: '`<resource>.<verb>`', example: 'task.claimed' })
  @Optional()
  @IsString()
  @MaxLength(255)
  action?: string;

  @ApiPropertyOptional({ description: 'The X-Request-ID of the request that made the change' })
  @Optional()
  @IsString()
  @MaxLength(255)
  request_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this moment' })
  @Optional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries before this moment' })
  @Optional()
  @IsDateTime()
  to?: string;
}

/** The largest seq a query accepts (PostgreSQL's bigint, within JavaScript's exact integers). */
const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/** `GET .../audit/export`: the chain, or the part of it between two seqs (both inclusive). */
export class ExportAuditQuery {
  @ApiPropertyOptional({ minimum: 1, description: 'First entry exported (default: the oldest kept)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEQ)
  from_seq?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Last entry exported (default: the newest sealed)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEQ)
  to_seq?: number;
}
