/**
 * `@media/kernel`: the Nest side every layer above builds on: config injection, the database
 * helpers (availability, prepared queries, changed rows), the app's logger, and validation
 * (the global pipe, DTO decorators, JSON byte checks) shared by HTTP bodies and NATS payloads.
 */
export { InjectConfig } from './config/inject-config';
export { APP_CONFIG, APP_NAME } from './config/tokens';
export { changedRows } from './database/changed-rows';
export { PreparedQuery } from './database/prepared';
export { INDEX_SCANS_ONLY, inIndexScansTransaction } from './database/index-scans';
export { uniqueViolation } from './database/errors';
export { DatabaseAvailability } from './database/availability';

// Validation
export { ContractValidationPipe, validateDto } from './validation/validation.pipe';
export { RpcPayload } from './validation/rpc-payload';
export {
  contractConstraint,
  IsDateOnly,
  IsDateTime,
  IsMoney,
  IsName,
  IsPlainObject,
  Nullable,
  Optional,
  ToDecimalString,
} from './validation/decorators';
export { ItemType } from './validation/coerce';
export { IsCleanText, isCleanText, Trim } from './validation/text';
export { isFormBody, markFormBody } from './validation/form-body';

// Used by the libraries above this one
export { InvalidJsonBody, markCheckedText } from './validation/form-body';
export { ReadRetryInterceptor } from './database/availability';
export { toIssues } from './validation/validation.pipe';
export { AppLogger } from './logging/app-logger';
export { loggerOptions } from './logging/logging';
export { decodeUtf8, parseQueryString, parseUrlEncoded, pathDecoding } from './validation/text-decoding';
export {
  jsonBytesProblem,
  mayHoldUnsafeText,
  narrowWideObjects,
  NOT_UTF8,
  TOO_DEEP,
} from './validation/json-bytes';
