import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { APPS, envPrefix, type ServiceName } from '@media/contracts';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { pino } from 'pino';
import { AppLogger, loggerOptions, parseQueryString, pathDecoding } from '@media/kernel';
import {
  ConfigError,
  processEnv,
  answerClientErrors,
  requestContext,
  requestId,
  parseTrustedProxies,
  type TrustedProxies,
  AppMetrics,
  httpMetrics,
  contextFrom,
  endHttpSpan,
  openSpan,
  SpanKind,
  startTracing,
  stopTracing,
  manageConnections,
  type HttpConnections,
  runProcess,
} from '@media/core';
import type { HttpTimeouts, PlatformConfig } from '@media/core';
import { migrateDatabase } from '../database/database';
import {
  bodyParsing,
  declareDecimalPatterns,
  declareRequestExamples,
  declarePathParameters,
  declareDecimalInputs,
  declareNullableReferences,
  declareSecurity,
} from '@media/http';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  clusterSpread,
  plannedMoveUnderWay,
  registerService,
  busListenerOptions,
  isInProcess,
  NATS_CLIENT,
} from '@media/messaging';
import { BusHealthIndicator } from '../health/bus.health';
import { DrainHealthIndicator } from '../health/drain.health';
import type { AppDefinition } from './app-definition';
import { DrainHooks } from './drain-hooks';

/** Each app's connection manager (the Nest application object is a proxy: no own properties). */
const CONNECTIONS = new WeakMap<INestApplication, HttpConnections>();
/** Each app's logger. */
const LOGGERS = new WeakMap<INestApplication, AppLogger>();

/** TRUSTED_PROXIES as Express's `trust proxy` function; a bad entry is a ConfigError. */
export function trustedProxies(spec: string): TrustedProxies {
  try {
    return parseTrustedProxies(spec);
  } catch (error) {
    throw new ConfigError('TRUSTED_PROXIES', (error as Error).message);
  }
}

/** Reads the app's config: `<APP>_PORT` overrides, `PORT` sets an app run alone (docs/api/contract.md §0). */
export function loadAppConfig<C extends PlatformConfig>(
  def: AppDefinition<C>,
  env: Record<string, string | undefined>,
): C {
  const known = def.name in APPS ? APPS[def.name as ServiceName] : undefined;
  const port = env[`${envPrefix(def.name as ServiceName)}_PORT`] || env.PORT || String(known?.port ?? 0);
  return def.config.load({ ...env, PORT: port });
}

/**
 * Gives each request its id and a server span continuing the caller's `traceparent` (the
 * gateway's), both carried by everything the request does (logs, SQL, NATS hops, events).
 */
function contextMiddleware(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  req.id = requestId(req, res);
  const span = openSpan(
    `${req.method} ${req.path}`,
    SpanKind.SERVER,
    contextFrom({ traceparent: req.headers.traceparent as string | undefined }),
    {
      'http.request.method': req.method,
      request_id: req.id,
    },
  );
  res.once('finish', () => {
    const route = req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : 'unmatched';
    endHttpSpan(span.span, route, req.method, res.statusCode);
  });
  requestContext.run({ request_id: req.id }, () => span.run(next));
}

/**
 * The gateway's HTTP timeouts on an app's own server too: an app may be reached directly (an
 * ingress, a published port), and Node's defaults keep a slow-header connection for a minute.
 */
export function applyTimeouts(server: import('node:http').Server, timeouts: HttpTimeouts): void {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.idle;
  // Node enforces the two timeouts above only on this interval (30 s by default); read at listen.
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.max(
    100,
    Math.min(1_000, timeouts.headers / 4),
  );
}

/** Applies pending migrations with a short-lived connection, before any module touches a table. */
async function migrate<C extends PlatformConfig>(def: AppDefinition<C>, config: C): Promise<void> {
  const logger = pino({ level: config.log.level, base: { app: def.name }, messageKey: 'msg' });
  await migrateDatabase(def.name, config.database, def.database, (message) =>
    logger.info({ context: 'Database' }, message),
  );
}

/**
 * The app's OpenAPI document: every route, its path parameters, whether it needs a token, the
 * pattern of decimal (money) fields and an example of each JSON request body.
 */
export function openApiDocument(app: INestApplication, name: string): OpenAPIObject {
  return declareRequestExamples(
    declareDecimalInputs(
      declareNullableReferences(
        declareDecimalPatterns(
          declareSecurity(
            declarePathParameters(
              SwaggerModule.createDocument(
                app,
                new DocumentBuilder().setTitle(`${name} API`).setVersion('v1').addBearerAuth().build(),
                { operationIdFactory: (controller, method) => operationId(name, controller, method) },
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * camelCase and unique across the merged document of every app (code generators name methods
 * after it): app, controller without `Controller`, method, e.g. `contentStoryCategoriesCreate`.
 */
export function operationId(app: string, controller: string, method: string): string {
  const words = [...app.split('-'), controller.replace(/Controller$/, ''), method];
  return words
    .map((word, i) => (i === 0 ? word[0].toLowerCase() : word[0].toUpperCase()) + word.slice(1))
    .join('');
}

/**
 * The app's OpenAPI document without serving it: Nest's preview mode resolves the modules and
 * reads the controllers' metadata but instantiates nothing (no database, no NATS), so the
 * document can be built from a clean clone (the typed client's generator, `tools/openapi`).
 * `env` only has to pass the config's validation.
 */
export async function previewOpenApiDocument<C extends PlatformConfig>(
  def: AppDefinition<C>,
  env: Record<string, string | undefined>,
): Promise<OpenAPIObject> {
  const app = await NestFactory.create(def.rootModule(loadAppConfig(def, env)), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    app.setGlobalPrefix(def.prefix ?? APPS[def.name as ServiceName].prefix);
    return openApiDocument(app, def.name);
  } finally {
    await app.close();
  }
}

/** Boots one app: migrations, HTTP under its prefix (its OpenAPI document on demand), its NATS listener. */
export async function createApp<C extends PlatformConfig>(
  def: AppDefinition<C>,
  env: Record<string, string | undefined>,
  options: { host?: string; alone?: boolean } = {},
): Promise<INestApplication> {
  const config = loadAppConfig(def, env);
  const logging = loggerOptions(config.log);
  // Alone in its process, the app's lines are written a few KB at a time (see AppLoggerOptions).
  const logger = new AppLogger(def.name, { ...logging.logger, buffered: options.alone }, plannedMoveUnderWay);
  // Everything the boot starts (timers, workers, connections) descends from this context, so
  // its log lines carry this app even when several apps share the process (embedded default).
  return logger.run(() => bootApp(def, config, logger, logging, options));
}

async function bootApp<C extends PlatformConfig>(
  def: AppDefinition<C>,
  config: C,
  logger: AppLogger,
  logging: ReturnType<typeof loggerOptions>,
  options: { host?: string },
): Promise<INestApplication> {
  const trust = trustedProxies(config.trustedProxies);
  // Before the first database connection, so the pg driver is instrumented for SQL spans.
  startTracing(def.name, config.tracing.otlpEndpoint);
  await migrate(def, config);

  const app = await NestFactory.create(def.rootModule(config), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(logger);
  app.flushLogs();
  LOGGERS.set(app, logger);
  const prefix = def.prefix ?? APPS[def.name as ServiceName].prefix;
  app.setGlobalPrefix(prefix);
  const http = app.getHttpAdapter().getInstance() as import('express').Express;
  http.disable('x-powered-by');
  // X-Forwarded-* only from TRUSTED_PROXIES (the gateway), never from any private address.
  http.set('trust proxy', (address: string) => trust(address));
  const metrics = app.get(AppMetrics);
  const metricsEnabled = config.metrics.enabled;
  if (metricsEnabled) app.use(httpMetrics(metrics));
  // Queries, forms and paths share one decoding step: text that is not UTF-8 is a 422 at its field.
  http.set('query parser', parseQueryString);
  app.use(pathDecoding);
  app.use(contextMiddleware);
  // After the context middleware (it sets req.id): one access line per request, and the request's
  // lines bound to its id.
  app.use(logger.httpMiddleware(logging.access));
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(bodyParsing(config.limits));

  // Built on the first request and kept, not at boot: an app's document and the schema objects
  // behind it are megabytes of heap that a process never asked for docs need not hold (only the
  // gateway's /openapi.json and the docs tools ask).
  let document: OpenAPIObject | undefined;
  http.get(`/${prefix}/openapi.json`, (_req: Request, res: Response) => {
    document ??= openApiDocument(app, def.name);
    res.json(document);
  });
  // Scraped on the app's own port; the gateway never routes it (see the README's Observability).
  if (metricsEnabled) {
    http.get(`/${prefix}/metrics`, (_req: Request, res: Response, next: NextFunction) => {
      metrics.expose(res).catch(next);
    });
  }

  const listener = app.connectMicroservice(busListenerOptions(def.name, config.nats), {
    inheritAppConfig: true,
  });
  app.get(BusHealthIndicator).watchListener(listener.status);
  await app.startAllMicroservices();
  if (!isInProcess(config.nats)) {
    // After a failover, both connections move back to rejoined nodes by themselves.
    clusterSpread(`${def.name}-listener`).attach(listener.unwrap<NatsConnection>());
    // `$SRV.PING|INFO|STATS` (nats micro ...): this instance as the service named after the app.
    registerService(listener.unwrap<NatsConnection>(), def.name, def.rpc ?? [], metrics);
    const client = app.get<ClientProxy>(NATS_CLIENT);
    void client
      .connect()
      .then(() => clusterSpread(`${def.name}-client`).attach(client.unwrap<NatsConnection>()))
      .catch((error: unknown) =>
        // The client connects again on its first request; until it does, it is not spread
        // over the cluster's nodes after a failover. Say so rather than stay silent.
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'The NATS client did not connect at start: it connects on its first request, without cluster spreading',
          'Bus',
        ),
      );
  }
  const connections = manageConnections(app.getHttpServer(), {
    bytes: config.limits.upload,
    ms: 2_000,
  });
  CONNECTIONS.set(app, connections);
  app.get(DrainHealthIndicator).follow(() => connections.draining);
  const server = app.getHttpServer() as import('node:http').Server;
  applyTimeouts(server, config.http);
  answerClientErrors(server);
  await app.listen(config.port, options.host ?? '0.0.0.0');
  return app;
}

/**
 * Stops an app gracefully: drains HTTP first (idle keep-alive connections closed, in-flight
 * requests answered with `Connection: close`, bounded by SHUTDOWN_TIMEOUT) while the database
 * and NATS are still there to answer them, then closes the rest of the app.
 */
export async function stopApp(app: INestApplication, timeoutMs: number): Promise<void> {
  const connections = CONNECTIONS.get(app);
  if (connections) {
    const hooks = app.get(DrainHooks);
    const cut = await connections.drain(timeoutMs, () => hooks.run());
    if (cut > 0) LOGGERS.get(app)?.warn(`${cut} request(s) cut at SHUTDOWN_TIMEOUT`);
  }
  await app.close();
}

/** `main.ts` of every app: boot from the environment, stop cleanly on SIGTERM/SIGINT. */
export function runApp<C extends PlatformConfig>(def: AppDefinition<C>): Promise<void> {
  return runProcess({
    name: def.name,
    start: async () => {
      const env = processEnv();
      const shutdownTimeout = loadAppConfig(def, env).shutdownTimeout;
      return { app: await createApp(def, env, { alone: true }), shutdownTimeout };
    },
    shutdownTimeout: (running) => running.shutdownTimeout,
    stop: async ({ app, shutdownTimeout }, signal) => {
      LOGGERS.get(app)?.log(`${signal} received: draining`);
      await stopApp(app, shutdownTimeout);
      await stopTracing();
    },
  });
}
