import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import {
  BodyGuard,
  createJwtAuthGuard,
  MalformedBodyGuard,
  PermissionsGuard,
  createJwtStrategy,
  Paginator,
  IdempotencyCleanup,
  IdempotencyInterceptor,
} from '@media/http';
import { JwksKeyStore, VerifiedTokens, TokenVersions, AppMetrics } from '@media/core';
import { TokenVersionFeedRunner, tokenVersionsFor } from '../auth/token-version-feed.provider';
import type { PlatformConfig } from '@media/core';
import type { AppDefinition } from './app-definition';
import type { EventRoles } from './feature';
import { DrainHooks } from './drain-hooks';
import {
  APP_CONFIG,
  APP_NAME,
  DatabaseAvailability,
  ReadRetryInterceptor,
  ContractValidationPipe,
} from '@media/kernel';
import { databaseOptions, type DatabaseParts } from '../database/database';
import { ContractExceptionFilter } from './exception.filter';
import { BusHealthIndicator } from '../health/bus.health';
import { DrainHealthIndicator } from '../health/drain.health';
import { EventsHealthIndicator } from '../health/events.health';
import { HealthController } from '../health/health.controller';
import { AclClient, DocumentsClient } from '@media/app-clients';
import {
  RpcClient,
  RpcContextInterceptor,
  createBusClient,
  NATS_CLIENT,
  EventBus,
  EventConsumers,
  Outbox,
} from '@media/messaging';
import { PlatformInterceptor } from './platform.interceptor';
import { PlatformMetrics } from './platform-metrics';
import { auditControllerFor } from '../audit/audit.controller';
import { AuditKeyStore } from '../audit/audit-keys';
import { AuditReader } from '../audit/audit-reader.service';
import { AuditCheckpoints } from '../audit/checkpoints';
import { AuditPublisher } from '../audit/publisher';
import { AuditRetention } from '../audit/retention';
import { AuditSealer } from '../audit/sealer';

export interface PlatformModuleOptions {
  name: AppDefinition['name'];
  config: PlatformConfig;
  database: DatabaseParts;
  /** What the app does with events (default: both): no discovery without consumers, no relay without publishers. */
  events?: EventRoles;
}

/** Closes the app's DataSource when the app closes (after its HTTP drain, see stopApp). */
@Injectable()
class DataSourceLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * What every app boots with, wired once (logging is set up by createApp): config, database, auth (in the contract's
 * order of checks), validation, errors, pagination, NATS client and health.
 */
@Module({})
export class PlatformModule {
  static forApp({ name, config, database, events }: PlatformModuleOptions): DynamicModule {
    const { consumes, publishes } = events ?? { consumes: true, publishes: true };
    const imports: ModuleMetadata['imports'] = [
      PassportModule,
      ...(consumes ? [DiscoveryModule] : []),
      TerminusModule.forRoot({ logger: false }),
    ];
    return {
      module: PlatformModule,
      global: true,
      imports,
      // chat-notifications answers under `/api`, enveloped: its audit routes are `/api/v1/audit`.
      controllers: [HealthController, auditControllerFor(name === 'chat-notifications')],
      providers: [
        // The app's DataSource, provided here rather than by TypeOrmModule.forRoot: that one
        // registers its name in a registry shared by the whole process, and the embedded
        // default's eight apps (one DataSource each, in eight DI containers) warned seven times
        // at every start. Features' TypeOrmModule.forFeature repositories inject this one.
        {
          provide: DataSource,
          useFactory: () => new DataSource(databaseOptions(name, config.database, database)).initialize(),
        },
        DataSourceLifecycle,
        { provide: APP_NAME, useValue: name },
        { provide: AppMetrics, useFactory: () => new AppMetrics(name) },
        PlatformMetrics,
        { provide: APP_CONFIG, useValue: config },
        { provide: JwksKeyStore, useFactory: () => new JwksKeyStore(config.auth.jwksUrl) },
        { provide: TokenVersions, useFactory: () => tokenVersionsFor(config) },
        TokenVersionFeedRunner,
        {
          provide: VerifiedTokens,
          useFactory: (keys: JwksKeyStore, versions: TokenVersions) => new VerifiedTokens(keys, versions),
          inject: [JwksKeyStore, TokenVersions],
        },
        { provide: NATS_CLIENT, useFactory: () => createBusClient(name, config.nats) },
        createJwtStrategy(name),
        Paginator,
        RpcClient,
        AclClient,
        DocumentsClient,
        DatabaseAvailability,
        BusHealthIndicator,
        DrainHealthIndicator,
        EventsHealthIndicator,
        DrainHooks,
        EventBus,
        ...(publishes ? [Outbox] : []),
        ...(consumes ? [EventConsumers] : []),
        { provide: APP_GUARD, useClass: createJwtAuthGuard(name) },
        { provide: APP_GUARD, useClass: BodyGuard },
        { provide: APP_GUARD, useClass: PermissionsGuard },
        { provide: APP_GUARD, useClass: MalformedBodyGuard },
        { provide: APP_PIPE, useClass: ContractValidationPipe },
        { provide: APP_FILTER, useClass: ContractExceptionFilter },
        // One global interceptor (see PlatformInterceptor): the NATS request's context; for HTTP,
        // reads run again on a lost session, around the idempotency key (closest to the handler,
        // after the guards have read the caller and the body).
        RpcContextInterceptor,
        ReadRetryInterceptor,
        IdempotencyInterceptor,
        { provide: APP_INTERCEPTOR, useClass: PlatformInterceptor },
        IdempotencyCleanup,
        { provide: AuditKeyStore, useFactory: () => new AuditKeyStore(config.audit.keysUrl) },
        AuditReader,
        AuditCheckpoints,
        AuditPublisher,
        AuditSealer,
        AuditRetention,
      ],
      exports: [
        DataSource,
        AppMetrics,
        APP_NAME,
        APP_CONFIG,
        JwksKeyStore,
        TokenVersions,
        VerifiedTokens,
        NATS_CLIENT,
        Paginator,
        RpcClient,
        AclClient,
        DocumentsClient,
        EventBus,
        DrainHooks,
        ...(publishes ? [Outbox] : []),
        AuditCheckpoints,
        AuditSealer,
        AuditPublisher,
        AuditRetention,
      ],
    };
  }
}
