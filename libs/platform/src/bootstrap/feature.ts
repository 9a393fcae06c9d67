import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import type { EntitySchema } from 'typeorm';
import type { ClassRef, DatabaseParts } from '../database/database';
import type { RpcEndpoint } from '@media/messaging';
import { isEventHandler, Outbox } from '@media/messaging';

const FEATURE = Symbol('platform:feature');

/** The tables a feature owns: its entities and the migrations that create them. */
export interface FeatureParts {
  entities?: (ClassRef | EntitySchema)[];
  migrations?: ClassRef[];
}

/** A feature module as an app lists it (a module class, or a dynamic module). */
export type FeatureModule = Type | DynamicModule | ForwardReference;

/** What an app's features do with events: decides whether the platform runs discovery or a relay. */
export interface EventRoles {
  /** Some provider has an `@OnEvent` method: durable consumers are discovered and subscribed. */
  consumes: boolean;
  /** Some provider injects the `Outbox`: its relay polls and publishes. */
  publishes: boolean;
}

/**
 * Declares the entities and migrations of a feature module, next to it; `defineApp` gathers
 * them from every feature (and the modules they import), so an app has no central list.
 *
 * ```ts
 * @Feature({ entities: [Slot], migrations: [CreateLineup1764100000000] })
 * @Module({ imports: [TypeOrmModule.forFeature([Slot])], providers: [LineupService] })
 * export class LineupModule {}
 * ```
 */
export function Feature(parts: FeatureParts): ClassDecorator {
  return (target) => Reflect.defineMetadata(FEATURE, parts, target);
}

/** The timestamp a migration's class name ends with (TypeORM's own convention), for ordering. */
export function migrationTimestamp(migration: ClassRef): number {
  const match = /(\d{10,})$/.exec(migration.name);
  if (!match) throw new Error(`migration ${migration.name} does not end with its timestamp`);
  return Number(match[1]);
}

function unwrap(ref: unknown): { module?: Type; dynamic?: Partial<DynamicModule> } {
  if (!ref) return {};
  if (typeof ref === 'function') return { module: ref as Type };
  const value = ref as Partial<DynamicModule> & Partial<ForwardReference> & { then?: unknown };
  if (typeof value.forwardRef === 'function') return unwrap(value.forwardRef());
  if (typeof value.then === 'function') return {}; // an async dynamic module: nothing to read statically
  if (value.module) return { module: value.module, dynamic: value };
  return {};
}

function providerClasses(provider: Provider): { classes: Type[]; inject: unknown[] } {
  if (typeof provider === 'function') return { classes: [provider], inject: [] };
  const p = provider as { useClass?: Type; inject?: unknown[] };
  return { classes: p.useClass ? [p.useClass] : [], inject: p.inject ?? [] };
}

function injects(cls: Type, token: unknown): boolean {
  const params = (Reflect.getMetadata('design:paramtypes', cls) as unknown[] | undefined) ?? [];
  const declared = (Reflect.getMetadata('self:paramtypes', cls) as { param: unknown }[] | undefined) ?? [];
  const properties =
    (Reflect.getMetadata('self:properties_metadata', cls) as { type: unknown }[] | undefined) ?? [];
  return (
    params.includes(token) ||
    declared.some((d) => d.param === token) ||
    properties.some((p) => p.type === token)
  );
}

function hasEventHandler(cls: Type): boolean {
  for (let proto = cls.prototype as object | null; proto && proto !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (typeof descriptor?.value === 'function' && isEventHandler(descriptor.value as object)) return true;
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return false;
}

/**
 * Walks the feature modules (and every module they import) once: their `@Feature` entities and
 * migrations (migrations ordered by timestamp across features), and their use of events.
 */
/** Where `@MessagePattern` keeps its subjects (`PATTERN_METADATA` of @nestjs/microservices). */
const PATTERN_METADATA = 'microservices:pattern';

/** The `@MessagePattern` subjects of a controller class, each with its method. */
function messagePatterns(cls: Type): RpcEndpoint[] {
  const prototype = cls.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const fn = prototype[method];
    if (method === 'constructor' || typeof fn !== 'function') return [];
    const patterns = (Reflect.getMetadata(PATTERN_METADATA, fn) as unknown[] | undefined) ?? [];
    return patterns
      .filter((pattern): pattern is string => typeof pattern === 'string')
      .map((subject) => ({ subject, handler: `${cls.name}.${method}` }));
  });
}

export function collectFeatures(features: FeatureModule[]): {
  database: DatabaseParts;
  events: EventRoles;
  rpc: RpcEndpoint[];
} {
  const rpc: RpcEndpoint[] = [];
  const entities = new Set<ClassRef | EntitySchema>();
  const migrations = new Set<ClassRef>();
  const events: EventRoles = { consumes: false, publishes: false };
  const seenModules = new Set<unknown>();
  const seenDynamic = new Set<unknown>();

  const visit = (ref: unknown): void => {
    const { module, dynamic } = unwrap(ref);
    if (!module) return;
    const key = dynamic ?? module;
    if (seenDynamic.has(key)) return;
    seenDynamic.add(key);
    const imports: unknown[] = [...(dynamic?.imports ?? [])];
    // Controllers are classes too: one injecting the Outbox publishes as much as a service does.
    const controllers: Type[] = [...(dynamic?.controllers ?? [])];
    const providers: Provider[] = [...(dynamic?.providers ?? [])];
    if (!seenModules.has(module)) {
      seenModules.add(module);
      const parts = Reflect.getMetadata(FEATURE, module) as FeatureParts | undefined;
      for (const entity of parts?.entities ?? []) entities.add(entity);
      for (const migration of parts?.migrations ?? []) migrations.add(migration);
      imports.push(...((Reflect.getMetadata('imports', module) as unknown[] | undefined) ?? []));
      providers.push(...((Reflect.getMetadata('providers', module) as Provider[] | undefined) ?? []));
      controllers.push(...((Reflect.getMetadata('controllers', module) as Type[] | undefined) ?? []));
    }
    for (const controller of controllers) rpc.push(...messagePatterns(controller));
    providers.push(...controllers);
    for (const provider of providers) {
      const { classes, inject } = providerClasses(provider);
      if (inject.includes(Outbox)) events.publishes = true;
      for (const cls of classes) {
        if (injects(cls, Outbox)) events.publishes = true;
        if (hasEventHandler(cls)) events.consumes = true;
      }
    }
    imports.forEach(visit);
  };
  features.forEach(visit);

  const ordered = [...migrations].sort((a, b) => migrationTimestamp(a) - migrationTimestamp(b));
  return { database: { entities: [...entities], migrations: ordered }, events, rpc };
}
