import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { InjectConfig, APP_NAME } from '@media/kernel';
import type { PlatformConfig } from '@media/core';
import { natsConnectionOptions, isInProcess } from '@media/messaging';
import { inProcessTokenVersionSource } from './in-process-token-versions';
import { natsTokenVersionSource, TokenVersionFeed, processTokenVersions, TokenVersions } from '@media/core';

/** How long a learned version matters: a token's longest life plus the clock skew. */
export const versionLifetime = (config: PlatformConfig) => config.auth.accessTtl + config.auth.clockSkew;

/** The app's TokenVersions: its own, or the process's when the apps share the in-process bus. */
export function tokenVersionsFor(config: PlatformConfig): TokenVersions {
  return isInProcess(config.nats)
    ? processTokenVersions(versionLifetime(config))
    : new TokenVersions(Date.now(), versionLifetime(config));
}

/** Keeps the app's TokenVersions current from acl (events, and a question at start and after outages). */
@Injectable()
export class TokenVersionFeedRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TokenVersions');
  private readonly feed: TokenVersionFeed;
  private warned = false;

  constructor(
    @Inject(TokenVersions) versions: TokenVersions,
    @InjectConfig() config: PlatformConfig,
    @Inject(APP_NAME) app: string,
  ) {
    const source = isInProcess(config.nats)
      ? inProcessTokenVersionSource(app)
      : natsTokenVersionSource(
          connect,
          { ...natsConnectionOptions(config.nats.url, config.nats), name: `${app}-token-versions` },
          config.nats.requestTimeout,
        );
    this.feed = new TokenVersionFeed(versions, source, {
      lookbackMs: versionLifetime(config),
      onError: (error) => {
        // Logged once per process: the feed retries (every second until acl first answers).
        if (this.warned) return;
        this.warned = true;
        this.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'token versions not read from acl yet; retrying',
        );
      },
    });
  }

  /** Not awaited: the app starts while NATS or acl is still coming; older tokens wait for the answer (503). */
  onApplicationBootstrap(): void {
    this.feed
      .start()
      .catch((error: unknown) => this.logger.warn({ err: String(error) }, 'token version feed not started'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.feed.stop();
  }
}
