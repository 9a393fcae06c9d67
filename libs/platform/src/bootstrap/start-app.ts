import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APPS, envPrefix, type ServiceName } from '@media/contracts';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { pino } from 'pino';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { ConfigError, processEnv, validateConfig } from '../config/env';
import type { PlatformConfig } from '../config/platform-config';
import { databaseOptions, runMigrations } from '../database/database';
import { bodyParsing } from '../http/body-parsing';
import { requestContext } from '../http/request-context';
import { requestId } from '../http/request-id';
import { busListenerOptions } from '../nats/transport';
import { BusHealthIndicator } from '../health/bus.health';
import { AppMetrics, httpMetrics } from '../observability/metrics';
import {
  contextFrom,
  endHttpSpan,
  openSpan,
  SpanKind,
  startTracing,
  stopTracing,
} from '../observability/tracing';
import type { AppDefinition } from './app-definition';

/** Reads the app's config: `<APP>_PORT` overrides, `PORT` sets an app run alone (CONTRACT §0). */
export function loadAppConfig<C extends PlatformConfig>(
  def: AppDefinition<C>,
  env: Record<string, string | undefined>,
): C {
  const known = def.name in APPS ? APPS[def.name as ServiceName] : undefined;
  const port = env[`${envPrefix(def.name as ServiceName)}_PORT`] || env.PORT || String(known?.port ?? 0);
  return validateConfig(def.configClass, { ...env, PORT: port });
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

/** Applies pending migrations with a short-lived connection, before any module touches a table. */
async function migrate<C extends PlatformConfig>(def: AppDefinition<C>, config: C): Promise<void> {
  const dataSource = new DataSource(databaseOptions(`${def.name}-migrations`, config, def.database));
  const logger = pino({ level: config.LOG_LEVEL, base: { app: def.name }, messageKey: 'msg' });
  await dataSource.initialize();
  try {
    await runMigrations(def.name, dataSource, (message) => logger.info({ context: 'Database' }, message));
  } finally {
    await dataSource.destroy();
  }
}

/** Boots one app: migrations, HTTP under its prefix, its NATS listener, OpenAPI document. */
export async function createApp<C extends PlatformConfig>(
  def: AppDefinition<C>,
  env: Record<string, string | undefined>,
  options: { host?: string } = {},
): Promise<INestApplication> {
  const config = loadAppConfig(def, env);
  // Before the first database connection, so the pg driver is instrumented for SQL spans.
  startTracing(def.name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  await migrate(def, config);

  const app = await NestFactory.create(def.rootModule(config), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  const prefix = def.prefix ?? APPS[def.name as ServiceName].prefix;
  app.setGlobalPrefix(prefix);
  const http = app.getHttpAdapter().getInstance() as import('express').Express;
  http.disable('x-powered-by');
  http.set('trust proxy', 'loopback, linklocal, uniquelocal');
  const metrics = app.get(AppMetrics);
  app.use(httpMetrics(metrics));
  app.use(contextMiddleware);
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(bodyParsing({ body: config.BODY_LIMIT, upload: config.UPLOAD_LIMIT }));

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle(`${def.name} API`).setVersion('v1').addBearerAuth().build(),
  );
  http.get(`/${prefix}/openapi.json`, (_req: Request, res: Response) => res.json(document));
  // Scraped on the app's own port; the gateway never routes it (see the README's Observability).
  http.get(`/${prefix}/metrics`, (_req: Request, res: Response, next: NextFunction) => {
    metrics.expose(res).catch(next);
  });

  const listener = app.connectMicroservice(busListenerOptions(def.name, config), { inheritAppConfig: true });
  app.get(BusHealthIndicator).watchListener(listener.status);
  await app.startAllMicroservices();
  await app.listen(config.PORT, options.host ?? '0.0.0.0');
  return app;
}

/** `main.ts` of every app: boot from the environment, stop cleanly on SIGTERM/SIGINT. */
export async function runApp<C extends PlatformConfig>(def: AppDefinition<C>): Promise<void> {
  let app: INestApplication;
  try {
    app = await createApp(def, processEnv());
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    app.get(Logger).log(`${signal} received: draining`);
    app
      .close()
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
