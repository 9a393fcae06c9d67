import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/** The process environment: the one place the platform reads it. */
export function processEnv(): Record<string, string | undefined> {
  return { ...process.env };
}

/** A configuration problem, reported at boot as one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

/** The most telling message: a type check (isInt, matches...) before a range check (min, max). */
function firstProblem(error: ValidationError): string {
  const entries = Object.entries(error.constraints ?? {});
  const typeCheck = entries.find(([name]) => name.startsWith('is') || name === 'matches');
  return (typeCheck ?? entries[0])?.[1] ?? 'is invalid';
}

/**
 * Builds a typed config object from environment variables, validated by the class's
 * class-validator decorators. Throws a ConfigError for the first invalid variable.
 */
export function validateConfig<T extends object>(
  cls: new () => T,
  env: Record<string, string | undefined>,
): T {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(cls, defined, {
    enableImplicitConversion: false,
    exposeDefaultValues: true,
  });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const error = errors[0];
    const value = env[error.property];
    throw new ConfigError(
      error.property,
      value === undefined || value === '' ? 'is required' : firstProblem(error),
    );
  }
  return config;
}
