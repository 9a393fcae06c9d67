import { Module } from '@nestjs/common';
import type { PlatformConfig } from '../config/platform-config';
import type { AppDefinition } from './app-definition';
import { collectFeatures, type EventRoles, type FeatureModule } from './feature';
import { PlatformModule } from './platform.module';

/** What an app declares, once: the rest (database parts, root module, event roles) is derived. */
export interface AppSpec<C extends PlatformConfig> {
  name: AppDefinition['name'];
  /** First path segment; defaults to the app's CONTRACT §0 prefix. */
  prefix?: string;
  /** Its config class, extending PlatformConfig with the app's own variables. */
  config: new () => C;
  /** Its feature modules; each declares its own entities and migrations with `@Feature`. */
  features: FeatureModule[];
  /** Overrides what is detected from the features (`@OnEvent` methods, `Outbox` injected). */
  events?: Partial<EventRoles>;
}

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
 *   config: ContentConfig,
 *   features: [LineupModule, StoryCategoriesModule],
 * });
 * ```
 *
 * `createApp` / `runApp` boot it with the platform around its features.
 */
export function defineApp<C extends PlatformConfig>(spec: AppSpec<C>): AppDefinition<C> {
  const { database, events: detected } = collectFeatures(spec.features);
  const events: EventRoles = { ...detected, ...spec.events };
  const Root = rootModuleClass(spec.name);
  return {
    name: spec.name,
    prefix: spec.prefix,
    configClass: spec.config,
    database,
    events,
    rootModule: (config) => ({
      module: Root,
      imports: [PlatformModule.forApp({ name: spec.name, config, database, events }), ...spec.features],
    }),
  };
}
