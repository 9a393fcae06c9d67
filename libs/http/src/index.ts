/**
 * `@media/http`: what a route is built with: auth guards and decorators, body parsing,
 * multipart, OpenAPI answers, pagination and idempotent retries.
 */
// HTTP: auth, bodies, errors, OpenAPI
export { CurrentUser, JsonOnly, Public, RequirePermissions } from './auth/decorators';
export { AnyPermissionGuard, RequireAnyPermission } from './auth/any-permission';
export { Idempotent } from './idempotency/idempotent.decorator';
export { Multipart, UploadedFiles, type UploadedFileInfo } from './http/multipart';
export { StreamedBody } from './http/streamed-body';
export {
  ApiBinary,
  ApiErrors,
  ApiNoContent,
  ApiStreamed,
  ApiSuccess,
  type ErrorStatus,
} from './http/api-docs';
export { envelope, type Envelope } from './http/envelope';

// Pagination
export { PageQuery, type Page } from './pagination/page-query';
export { newestFirst, Paginator, type KeysetOrder } from './pagination/paginator';

// Used by the libraries above this one
export { KeptAnswerReplay } from './idempotency/kept-answer';
export { BodyGuard, createJwtAuthGuard, MalformedBodyGuard, PermissionsGuard } from './auth/guards';
export { createJwtStrategy } from './auth/jwt.strategy';
export { IdempotencyCleanup } from './idempotency/idempotency-cleanup';
export { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
export { bodyParsing } from './http/body-parsing';
export { declareDecimalPatterns, declareRequestExamples } from './http/openapi-examples';
export { declarePathParameters } from './http/openapi-paths';
export { declareDecimalInputs, declareNullableReferences } from './http/openapi-schemas';
export { declareSecurity } from './http/openapi-security';
export { CreateIdempotencyKeys1700000000950 } from './idempotency/idempotency.migration';
