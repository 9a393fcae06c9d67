import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ErrorBody, ErrorCode, ValidationIssue } from '@media/contracts';

/** `{detail, code}`: every error but a 422 (CONTRACT §2). */
export class ErrorResponse implements ErrorBody {
  @ApiProperty({ description: 'A human sentence' })
  detail!: string;

  @ApiProperty({ example: 'not_found' })
  code!: ErrorCode;
}

export class ValidationIssueResponse implements ValidationIssue {
  @ApiProperty({ type: [String], example: ['body', 'title'] })
  loc!: string[];

  @ApiProperty()
  msg!: string;

  @ApiProperty({ example: 'string_too_long' })
  type!: string;
}

/** The 422 body: one item per failing field. */
export class ValidationErrorResponse {
  @ApiProperty({ type: [ValidationIssueResponse] })
  detail!: ValidationIssueResponse[];
}

const DESCRIPTIONS: Record<number, string> = {
  401: 'Missing, malformed, badly signed or expired token',
  403: 'A required permission is missing',
  404: 'Not found',
  409: 'Conflict',
  412: 'If-Match is not the current ETag',
  413: 'Body over the limit',
  415: 'Unsupported content type',
  422: 'Validation failed (every failing field)',
  503: 'A service this request depends on did not answer',
};

/**
 * Documents the error statuses a route can answer, each with the contract's body schema
 * (CONTRACT §2): `{detail, code}`, or the 422 list of issues.
 */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ErrorResponse, ValidationErrorResponse),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        schema: {
          $ref: getSchemaPath(status === 422 ? ValidationErrorResponse : ErrorResponse),
        },
      }),
    ),
  );
}

/** A cursor page of `item` (CONTRACT §3), as an OpenAPI schema. */
export function pageSchema(item: Type<unknown>) {
  return {
    type: 'object',
    required: ['results', 'next', 'previous'],
    properties: {
      results: { type: 'array', items: { $ref: getSchemaPath(item) } },
      next: { type: 'string', format: 'uri', nullable: true },
      previous: { type: 'string', format: 'uri', nullable: true },
    },
  };
}

/**
 * A cursor page of `item` (CONTRACT §3) as a response class to name by extending it:
 * `export class PlanPageDto extends PageDto(PlanDto) {}`.
 */
export function PageDto<T>(item: Type<T>) {
  class Page {
    @ApiProperty({ type: [item] }) results!: T[];
    @ApiProperty({ type: String, nullable: true, format: 'uri' }) next!: string | null;
    @ApiProperty({ type: String, nullable: true, format: 'uri' }) previous!: string | null;
  }
  return Page;
}
