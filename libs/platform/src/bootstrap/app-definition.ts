import type { DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@media/contracts';
import type { ConfigDefinition, PlatformConfig, PlatformEnv } from '@media/core';
import type { DatabaseParts } from '../database/database';
import type { RpcEndpoint } from '@media/messaging';
import type { EventRoles } from './feature';

/**
 * What an app tells the platform to boot it, alone (`main.ts`) or with the others in one
 * process (the embedded default). Apps build it with `defineApp`; test fixtures may spell it out.
 */
export interface AppDefinition<C extends PlatformConfig = PlatformConfig> {
  /** One of the nine apps, or a test fixture's own name (which then needs `prefix`). */
  name: ServiceName | `fixture-${string}`;
  /** First path segment; defaults to the app's docs/api/contract.md §0 prefix. */
  prefix?: string;
  /** Its config: the platform's variables and its own, as a typed object (`defineConfig`). */
  config: ConfigDefinition<PlatformEnv, C>;
  /** Every entity and migration (ordered); `defineApp` gathers them from the features' `@Feature`. */
  database: DatabaseParts;
  /** What the app does with events, as detected by `defineApp` (absent: both). */
  events?: EventRoles;
  /** Its NATS responders (`@MessagePattern` methods), as found by `defineApp` in its features. */
  rpc?: RpcEndpoint[];
  /** The root module; it imports PlatformModule.forApp(...) and the app's feature modules. */
  rootModule(config: C): DynamicModule;
}
