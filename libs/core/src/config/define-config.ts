import { validateConfig } from './env';

type Variables = Record<string, string | undefined>;

/**
 * One config, declared once: the environment variables it reads (a class whose properties are
 * the variables' names, validated with class-validator) and the typed, grouped, camelCase object
 * code reads, built from them. Apps and the gateway alike:
 *
 * ```ts
 * export const aclConfig = defineConfig(AclEnv, (env) => ({
 *   ...platformConfig(env),
 *   invitations: { ttl: env.INVITATION_TTL },
 * }));
 * export type AclConfig = ConfigOf<typeof aclConfig>;
 * ```
 */
export interface ConfigDefinition<E extends object, C> {
  /** The variables' class (its names are what a ConfigError reports). */
  readonly env: new () => E;
  /** Validates the variables (ConfigError naming the first bad one) and builds the config. */
  load(variables: Variables): C;
}

export type ConfigOf<D> = D extends ConfigDefinition<object, infer C> ? C : never;

export function defineConfig<E extends object, C>(
  env: new () => E,
  build: (env: E) => C,
  options: {
    /** Fills defaults that depend on other variables, before validation (so a bad value is still named). */
    defaults?: (variables: Variables) => Variables;
  } = {},
): ConfigDefinition<E, C> {
  return {
    env,
    load: (variables) => build(validateConfig(env, options.defaults?.(variables) ?? variables)),
  };
}
