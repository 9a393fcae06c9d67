import type { DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@media/contracts';
import type { PlatformConfig } from '../config/platform-config';
import type { DatabaseParts } from '../database/database';

/**
 * What an app tells the platform to boot it, alone (`main.ts`) or with the others in one
 * process (the embedded default).
 */
export interface AppDefinition<C extends PlatformConfig = PlatformConfig> {
  /** One of the nine apps, or a test fixture's own name (which then needs `prefix`). */
  name: ServiceName | `fixture-${string}`;
  /** First path segment; defaults to the app's CONTRACT §0 prefix. */
  prefix?: string;
  /** Its config class, extending PlatformConfig with the app's own variables. */
  configClass: new () => C;
  database: DatabaseParts;
  /** The root module; it imports PlatformModule.forApp(...) and the app's feature modules. */
  rootModule(config: C): DynamicModule;
}
