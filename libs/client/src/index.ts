/**
 * `@media/client`: a typed client of the API through the gateway. The types are generated from
 * the merged OpenAPI document (`npm run client:generate`); see docs/client.md.
 */
export {
  createApiClient,
  loginClient,
  type ApiClient,
  type ApiClientOptions,
  type Schema,
  type TokenPair,
} from './client';
export type { components, operations, paths } from './generated/openapi';
