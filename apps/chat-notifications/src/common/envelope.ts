import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiProperty,
  ApiResponse,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
  getSchemaPath,
} from '@nestjs/swagger';

/** Every chat-and-notification success body (CONTRACT §3): `{success, message, data}`. */
export interface Envelope<T> {
  success: true;
  message: string;
  data: T;
}

export function envelope<T>(message: string, data: T): Envelope<T> {
  return { success: true, message, data };
}

/** The error body of every non-validation failure (CONTRACT §2). */
export class ErrorBodyDto {
  @ApiProperty() detail!: string;
  @ApiProperty() code!: string;
}

export class ValidationIssueDto {
  @ApiProperty({ type: [String] }) loc!: string[];
  @ApiProperty() msg!: string;
  @ApiProperty() type!: string;
}

export class ValidationErrorDto {
  @ApiProperty({ type: [ValidationIssueDto] }) detail!: ValidationIssueDto[];
}

/**
 * Documents a route's enveloped success body (`data` of `model`, a list page of it with
 * `list`) and the error statuses it can answer.
 */
export function ApiEnvelope(
  status: number,
  model: Type<unknown>,
  options: { list?: boolean; errors?: number[]; description?: string; alsoOk?: number[] } = {},
) {
  const data = options.list
    ? {
        type: 'object',
        properties: {
          results: { type: 'array', items: { $ref: getSchemaPath(model) } },
          next: { type: 'string', nullable: true },
          previous: { type: 'string', nullable: true },
        },
      }
    : { $ref: getSchemaPath(model) };
  const errors = (options.errors ?? []).map((code) =>
    ApiResponse({ status: code, type: ErrorBodyDto, description: `Error ${code}` }),
  );
  const schema = {
    type: 'object' as const,
    required: ['success', 'message', 'data'],
    properties: { success: { type: 'boolean' as const }, message: { type: 'string' as const }, data },
  };
  return applyDecorators(
    ApiExtraModels(model, ErrorBodyDto, ValidationErrorDto),
    ApiResponse({ status, description: options.description ?? 'Success', schema }),
    ...(options.alsoOk ?? []).map((code) => ApiResponse({ status: code, description: 'Success', schema })),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'Missing, invalid or expired token' }),
    ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Validation failure' }),
    ...errors,
  );
}

export { ApiNotFoundResponse };
