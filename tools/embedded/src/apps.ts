import type { ServiceName } from '@media/contracts';
import type { AppDefinition } from '@media/platform';
// Everything heavy the runner needs (the nine apps' code, Nest, TypeORM): loaded once PostgreSQL
// and nats-server are starting, so that seconds of module loading overlap their start.
// The runner boots the apps' own definitions in one process: the same code `main.ts` of each
// app runs alone, so the embedded default cannot drift from the distributed mode. Apps have no
// npm-scope alias (nothing else may import them), hence relative paths; tags allow tool -> app.
/* eslint-disable @nx/enforce-module-boundaries */
import { aclApp } from '../../../apps/acl/src/app.definition';
import { assignmentApp } from '../../../apps/assignment/src/app.definition';
import { chatNotificationsApp } from '../../../apps/chat-notifications/src/app.definition';
import { commercialApp } from '../../../apps/commercial/src/app.definition';
import { contentApp } from '../../../apps/content/src/app.definition';
import { documentsApp } from '../../../apps/documents/src/app.definition';
import { inventoryApp } from '../../../apps/inventory/src/app.definition';
import { paymentApp } from '../../../apps/payment/src/app.definition';

export { startGateway } from '../../../apps/gateway/src/start';
export { createApp, stopApp } from '@media/platform';

/** Every service app by name; acl is started first (the others fetch its JWKS). */
export const SERVICE_DEFINITIONS: Record<ServiceName, AppDefinition> = {
  acl: aclApp,
  content: contentApp,
  assignment: assignmentApp,
  inventory: inventoryApp,
  commercial: commercialApp,
  payment: paymentApp,
  documents: documentsApp,
  'chat-notifications': chatNotificationsApp,
};
