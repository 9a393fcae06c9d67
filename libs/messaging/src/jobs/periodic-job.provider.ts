import type {
  FactoryProvider,
  InjectionToken,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job';

/** A PeriodicJob that Nest starts at bootstrap and stops (awaiting its pass) at shutdown. */
class ScheduledJob<R> extends PeriodicJob<R> implements OnApplicationBootstrap, OnApplicationShutdown {
  onApplicationBootstrap(): void {
    this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}

/** The token of the job `periodicJobProvider` registers under `name` (a test resolves it with `app.get`). */
export const periodicJobToken = (name: string): string => `PeriodicJob:${name}`;

/**
 * A provider that is a PeriodicJob started at bootstrap and stopped at shutdown, its options
 * built from the injected `inject` (`useFactory(...deps)`): for a job that is nothing but its
 * schedule and a call into a service, instead of a class repeating the start/stop wiring.
 *
 * ```ts
 * providers: [UploadsService, periodicJobProvider({ name: 'UploadExpiry', inject: [UploadsService],
 *   useFactory: (uploads: UploadsService) => ({ every: 60_000, run: () => uploads.sweepExpired(100) }) })]
 * ```
 */
export function periodicJobProvider<R, D extends unknown[]>(provider: {
  /** The job's name in logs, and its token (`periodicJobToken(name)`). */
  name: string;
  inject?: InjectionToken[];
  useFactory: (...deps: D) => Omit<PeriodicJobOptions<R>, 'name'>;
}): FactoryProvider<PeriodicJob<R>> {
  return {
    provide: periodicJobToken(provider.name),
    inject: provider.inject ?? [],
    useFactory: (...deps: unknown[]) =>
      new ScheduledJob<R>({ name: provider.name, ...provider.useFactory(...(deps as D)) }),
  };
}
