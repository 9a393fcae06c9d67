import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { pino, type Logger as Pino, type Level } from 'pino';
import { pinoHttp, type Options } from 'pino-http';
import { currentApp, runInApp } from '@media/core';

/** What @nestjs/microservices logs at error level when a NATS connection drops. */
const NEST_NATS_DISCONNECT = 'NatsError: type: "disconnect".';

type NestLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * An app's Nest logger (not nestjs-pino's, whose root logger is one per process: in the embedded
 * default every line said the first app's name): JSON lines through pino with `app` in every line (docs/api/contract.md §6), the
 * request's `request_id` and `user_id` inside a request. `new Logger('Context').log(...)` in any
 * service lands here with the context as last argument, as with nestjs-pino.
 */
export class AppLogger implements LoggerService {
  /** Runs `work` (the app's boot) as this app: what it starts logs and traces as this app. */
  run<T>(work: () => T): T {
    return runInApp({ app: this.app, logger: this.root }, work);
  }

  readonly root: Pino;

  /**
   * `plannedNatsMove` says whether a NATS connection of this process is moving to a node that
   * rejoined (the NATS wiring knows; the logger is below it and asks).
   */
  constructor(
    readonly app: string,
    options: Options,
    private readonly plannedNatsMove: () => boolean = () => false,
  ) {
    const { level, messageKey, redact } = options as pino.LoggerOptions;
    this.root = pino({ level, messageKey, redact, base: { app } });
  }

  /** The pino-http middleware of this app: one access line per request, `req.log` bound to its id. */
  httpMiddleware(options: Options): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
    const http = pinoHttp({ ...options, logger: this.root });
    return (req, res, next) => {
      http(req, res);
      runInApp({ app: this.app, logger: (req as IncomingMessage & { log: Pino }).log }, next);
    };
  }

  /**
   * The logger lines go to now: the current request's or app's. Nest's static Logger reaches
   * one app's AppLogger for every app, so the context decides, not this instance.
   */
  private target(): Pino {
    return currentApp()?.logger ?? this.root;
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.call('trace', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.call('debug', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.call('info', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.call('warn', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    // Nest's NATS transport logs every disconnect as an error; one caused by a planned move to a
    // node that rejoined (cluster-spread) is routine, and said so at info.
    if (message === NEST_NATS_DISCONNECT && this.plannedNatsMove()) {
      this.call('info', 'NATS connection moving to a node that rejoined (planned)', params);
      return;
    }
    this.call('error', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.call('fatal', message, params);
  }

  /** Nest's contract: the context is the last parameter; an object first is merged into the line. */
  private call(level: NestLevel, message: unknown, params: unknown[]): void {
    const logger = this.target();
    if (!logger.isLevelEnabled(level as Level)) return;
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (typeof message === 'object' && message !== null) {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      logger[level](fields, ...(rest as [string]));
    } else if (
      level === 'error' &&
      typeof message === 'string' &&
      rest.length === 1 &&
      typeof rest[0] === 'string' &&
      /\n\s*at /.test(rest[0])
    ) {
      // Nest's exception handlers pass (message, stack).
      const err = new Error(message);
      err.stack = rest[0];
      logger.error({ ...fields, err });
    } else {
      logger[level](fields, String(message), ...(rest as []));
    }
  }
}
