import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

const MEANING: Record<number, string> = {
  401: 'No valid bearer token (`not_authenticated`, `token_invalid`, `token_expired`).',
  403: 'A permission is missing (`forbidden`).',
  404: 'Not found (`not_found`).',
  409: 'Conflicts with an existing resource.',
  415: 'Unsupported body content type.',
  422: 'Validation failed: `{"detail": [{"loc", "msg", "type"}]}`.',
  503: 'A service this request needs did not answer (`upstream_unavailable`).',
};

/** Documents the error statuses a route can answer, with the contract's meaning (CONTRACT §2). */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: MEANING[status] })));
