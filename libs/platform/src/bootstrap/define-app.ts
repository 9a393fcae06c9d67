import { Module } from '@nestjs/common';
import {
  defineConfig,
  type ConfigDefinition,
  platformConfig,
  type PlatformConfig,
  PlatformEnv,
} from '@media/core';
import type { AppDefinition } from './app-definition';
import { collectFeatures, type EventRoles, type FeatureModule } from './feature';
import { PlatformModule } from './platform.module';

/** What an app declares, once: the rest (database parts, root module, event roles) is derived. */
export interface AppSpec<C extends PlatformConfig = PlatformConfig> {
  name: AppDefinition['name'];
  /** First path segment; defaults to the app's docs/api/contract.md §0 prefix. */
  prefix?: string;
  /**
   * Its config (`defineConfig`): the platform's variables and its own, read as one typed
   * object. Omitted: the platform's alone.
   */
  config?: ConfigDefinition<PlatformEnv, C>;
  /** Its feature modules; each declares its own entities and migrations with `@Feature`. */
  features: FeatureModule[];
  /** Overrides what is detected from the features (`@OnEvent` methods, `Outbox` injected). */
  events?: Partial<EventRoles>;
}

/** An app with no variables of its own reads the platform's. */
const PLATFORM_ONLY = defineConfig(PlatformEnv, platformConfig);

function rootModuleClass(name: string): new () => object {
  const pascal = name.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
  const Root = { [`${pascal}AppModule`]: class {} }[`${pascal}AppModule`];
  Module({})(Root);
  return Root;
}

/**
 * An app, declared once:
 *
 * ```ts
 * export const contentApp = defineApp({
 *   name: 'content',
 *   features: [LineupModule, StoryCategoriesModule],
 * });
 * ```
 *
 * `createApp` / `runApp` boot it with the platform around its features.
 */
export function defineApp<C extends PlatformConfig = PlatformConfig>(spec: AppSpec<C>): AppDefinition<C> {
  const { database, events: detected, rpc } = collectFeatures(spec.features);
  const events: EventRoles = { ...detected, ...spec.events };
  const Root = rootModuleClass(spec.name);
  return {
    name: spec.name,
    prefix: spec.prefix,
    // Without its own config, C is PlatformConfig (the type parameter's default).
    config: spec.config ?? (PLATFORM_ONLY as unknown as ConfigDefinition<PlatformEnv, C>),
    database,
    events,
    rpc,
    rootModule: (config) => ({
      module: Root,
      imports: [PlatformModule.forApp({ name: spec.name, config, database, events }), ...spec.features],
    }),
  };
}
