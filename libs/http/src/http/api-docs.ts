import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorBody, type ErrorCode, type ValidationIssue } from '@media/contracts';

/** `{detail, code}`: every error but a 422 (docs/api/contract.md §2). */
export class ErrorResponse implements ErrorBody {
  @ApiProperty({ description: 'A human sentence' })
  detail!: string;

  @ApiProperty({
    description: 'A stable snake_case code',
    type: String,
    enum: [...ERROR_CODES],
    enumName: 'ErrorCode',
    example: 'not_found',
  })
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
  410: 'Gone',
  412: 'If-Match is not the current ETag',
  413: 'Body over the limit',
  415: 'Unsupported content type',
  416: 'Range not satisfiable',
  422: 'Validation failed (every failing field)',
  429: 'Too many requests; retry after Retry-After seconds',
  503: 'A service this request depends on did not answer',
};

/** An error status with, optionally, what it means for this route. */
export type ErrorStatus = number | [status: number, description: string];

/**
 * Documents the error statuses a route can answer, each with the contract's body schema
 * (docs/api/contract.md §2): `{detail, code}`, or the 422 list of issues. A `[status, description]` pair
 * says what the status means for this route.
 */
export function ApiErrors(...statuses: ErrorStatus[]) {
  return applyDecorators(
    ApiExtraModels(ErrorResponse, ValidationErrorResponse),
    ...statuses.map((entry) => {
      const [status, description] = Array.isArray(entry) ? entry : [entry, DESCRIPTIONS[entry] ?? 'Error'];
      return ApiResponse({
        status,
        description,
        schema: { $ref: getSchemaPath(status === 422 ? ValidationErrorResponse : ErrorResponse) },
      });
    }),
  );
}

type Schema = Record<string, unknown>;

/** A cursor page of `item` (docs/api/contract.md §3), as an OpenAPI schema. */
export function pageSchema(item: Type<unknown>): Schema {
  return {
    type: 'object',
    required: ['results', 'next', 'previous'],
    properties: {
      results: { type: 'array', items: { $ref: getSchemaPath(item) } },
      next: { type: 'string', format: 'uri', nullable: true, description: 'Absolute URL of the next page' },
      previous: {
        type: 'string',
        format: 'uri',
        nullable: true,
        description: 'Absolute URL of the previous page',
      },
    },
  };
}

/** `{success, message, data}` around `data` (the enveloped answers of docs/api/contract.md §3). */
export function envelopeSchema(data: Schema): Schema {
  return {
    type: 'object',
    required: ['success', 'message', 'data'],
    properties: {
      success: { type: 'boolean', enum: [true] },
      message: { type: 'string' },
      data,
    },
  };
}

export interface ApiSuccessOptions {
  /** The success status (default 200). */
  status?: number;
  /** Other success statuses with the same body (e.g. 200 for an existing resource, 201 for a new one). */
  also?: number[];
  /** `page`: a cursor page of the model; `array`: a plain JSON array of it. */
  list?: 'page' | 'array';
  /** Wrapped in `{success, message, data}`. */
  envelope?: boolean;
  /** The body (or the envelope's `data`) may be `null`: `nullable` on the schema, `X | null` in a generated client. */
  nullable?: boolean;
  description?: string;
  headers?: Record<string, { description?: string; schema: Schema }>;
}

/**
 * Documents a route's success body: the model (a class with `@ApiProperty`s), a page or an
 * array of it, optionally in the `{success, message, data}` envelope. Errors: `ApiErrors`.
 */
export function ApiSuccess(model: Type<unknown>, options: ApiSuccessOptions = {}) {
  const item = { $ref: getSchemaPath(model) };
  const data =
    options.list === 'page'
      ? pageSchema(model)
      : options.list === 'array'
        ? { type: 'array', items: item }
        : item;
  // OpenAPI 3.0 ignores a `$ref`'s siblings: a nullable reference is `allOf` with `nullable`.
  const body = options.nullable
    ? data === item
      ? { allOf: [item], nullable: true }
      : { ...data, nullable: true }
    : data;
  const schema = options.envelope ? envelopeSchema(body) : body;
  const status = options.status ?? 200;
  return applyDecorators(
    ApiExtraModels(model),
    ...[status, ...(options.also ?? [])].map((code) =>
      ApiResponse({
        status: code,
        description: options.description ?? (code === 201 ? 'Created' : 'Success'),
        schema,
        ...(options.headers ? { headers: options.headers } : {}),
      }),
    ),
  );
}

/** Documents an answer without a body (`204 No Content`, or e.g. `304 Not Modified`), with what it means for this route. */
export function ApiNoContent(description = 'No content', status = 204) {
  return ApiResponse({ status, description });
}

/**
 * Documents a success answer whose body is raw bytes (a download's 200, a range's 206), sent with
 * the type it was stored with: declared for any media type, so a validator takes whatever type
 * was stored, while the route's errors stay `application/json`.
 */
export function ApiBinary(description: string, status = 200) {
  return ApiResponse({
    status,
    description,
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  });
}

/**
 * Documents a success answer streamed as text lines of `mediaType` (e.g. `application/x-ndjson`,
 * one JSON value per line), with an example of its lines.
 */
export function ApiStreamed(mediaType: string, description: string, example?: string) {
  return ApiResponse({
    status: 200,
    description,
    content: { [mediaType]: { schema: { type: 'string', ...(example ? { example } : {}) } } },
  });
}
