import { SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { previewOpenApiDocument, type AppDefinition } from '@media/platform';
// The apps' own definitions and the gateway's merge: the document built here is the one the
// gateway serves at /openapi.json (apps/gateway/test/openapi.e2e-spec.ts compares them).
// Apps have no npm-scope alias (nothing else may import them); tags allow tool -> app.
/* eslint-disable @nx/enforce-module-boundaries */
import { aclApp } from '../../../apps/acl/src/app.definition';
import { assignmentApp } from '../../../apps/assignment/src/app.definition';
import { chatNotificationsApp } from '../../../apps/chat-notifications/src/app.definition';
import { commercialApp } from '../../../apps/commercial/src/app.definition';
import { contentApp } from '../../../apps/content/src/app.definition';
import { documentsApp } from '../../../apps/documents/src/app.definition';
import { inventoryApp } from '../../../apps/inventory/src/app.definition';
import { paymentApp } from '../../../apps/payment/src/app.definition';
import { mergeDocuments, type OpenApiDocument } from '../../../apps/gateway/src/docs/openapi';
/* eslint-enable @nx/enforce-module-boundaries */

/** Every app's definition, by name. */
export const DEFINITIONS: Record<ServiceName, AppDefinition> = {
  acl: aclApp,
  content: contentApp,
  assignment: assignmentApp,
  inventory: inventoryApp,
  commercial: commercialApp,
  payment: paymentApp,
  documents: documentsApp,
  'chat-notifications': chatNotificationsApp,
};

/**
 * Placeholders that pass each app's config validation. Nothing connects to them: the apps are
 * resolved in Nest's preview mode, which instantiates no provider.
 */
const PLACEHOLDER_ENV: Record<string, string> = {
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  NATS_URL: 'nats://127.0.0.1:1',
  CURSOR_SECRET: 'placeholder-cursor-secret-not-used-for-anything',
  JWT_JWKS_URL: 'http://127.0.0.1:1/acl/.well-known/jwks.json',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'Placeholder-Passw0rd!',
};

/** The merged OpenAPI document of every app, as the gateway serves it, built without a running stack. */
export async function mergedDocument(): Promise<OpenApiDocument> {
  const documents: { app: ServiceName; document: OpenApiDocument }[] = [];
  for (const app of SERVICE_NAMES) {
    documents.push({
      app,
      document: (await previewOpenApiDocument(DEFINITIONS[app], PLACEHOLDER_ENV)) as OpenApiDocument,
    });
  }
  return mergeDocuments(documents, []);
}
