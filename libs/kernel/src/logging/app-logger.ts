import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { pino, type Logger as Pino, type Level, type LoggerOptions } from 'pino';
import { currentApp, runInApp, type AppContext } from '@media/core';

/** What @nestjs/microservices logs at error level when a NATS connection drops. */
const NEST_NATS_DISCONNECT = 'NatsError: type: "disconnect".';

type NestLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** A logger's own options: the pino ones the platform sets, and how its lines are written. */
export interface AppLoggerOptions extends Pick<LoggerOptions, 'level' | 'messageKey' | 'redact'> {
  /**
   * Lines gathered and written a few KB at a time (at the latest every 250 ms, and at exit)
   * instead of one write per line: for an app alone in its process. Apps sharing a process (the
   * embedded default) write each line at once, so that their lines never interleave.
   */
  buffered?: boolean;
  /** Where lines go instead of stdout (a test's sink). */
  destination?: pino.DestinationStream;
}

/** Which requests the access log leaves out (the probes). */
export interface AccessLogOptions {
  ignore(req: IncomingMessage): boolean;
}

/** A buffered logger writes once this many bytes of whole lines are waiting... */
const BUFFER_BYTES = 2048;
/** ...or this often, whichever comes first. */
const FLUSH_EVERY_MS = 250;

/** stdout, written synchronously, a few KB of whole lines at a time (see AppLoggerOptions). */
function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: BUFFER_BYTES,
    // A chunk never grows past a pipe's atomic 4 KiB, so processes sharing stdout do not interleave.
    maxWrite: 2 * BUFFER_BYTES,
    periodicFlush: FLUSH_EVERY_MS,
  });
  process.once('exit', () => destination.flushSync());
  return destination;
}

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string; user?: { id?: string } };

/**
 * The async context of one request: its app, and a logger bound to its `request_id`, made the
 * first time a line of the request is logged (most requests log nothing but their access line,
 * which is written from the app's logger with the id as a field, so they make none).
 */
class RequestLogContext implements AppContext {
  private bound?: Pino;

  constructor(
    readonly app: string,
    private readonly root: Pino,
    private readonly requestId: string,
  ) {}

  get logger(): Pino {
    return (this.bound ??= this.root.child({ request_id: this.requestId }));
  }
}

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
    { level, messageKey, redact, buffered = false, destination }: AppLoggerOptions,
    private readonly plannedNatsMove: () => boolean = () => false,
  ) {
    const options = { level, messageKey, redact, base: { app } };
    const stream = destination ?? (buffered ? bufferedStdout() : undefined);
    this.root = stream ? pino(options, stream) : pino(options);
  }

  /**
   * The access log of this app (docs/api/contract.md §6): one line per request when its answer
   * ends, `request completed` (or `request aborted`) at info, `request errored` at error with
   * `err` for a 5xx, carrying `request_id`, `req` (method and url), `user_id` once the caller is
   * known, `res` (status) and `latency_ms`; the rest of the request runs in a context whose
   * logger adds its `request_id` to every line (made on first use).
   */
  httpMiddleware({
    ignore,
  }: AccessLogOptions): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
    const root = this.root;
    return (req: LoggedRequest, res, next) => {
      const requestId = req.id ?? 'unknown';
      if (!ignore(req)) {
        const started = Date.now();
        const ended = (err?: Error) => {
          res.removeListener('close', ended);
          res.removeListener('error', ended);
          const user = req.user?.id;
          const status = res.statusCode;
          const line: Record<string, unknown> = {
            request_id: requestId,
            req: { method: req.method, url: req.originalUrl || req.url },
          };
          if (user) line.user_id = user;
          line.res = { status };
          if (err || status >= 500) {
            line.err = err ?? new Error(`failed with status code ${status}`);
            line.latency_ms = Date.now() - started;
            root.error(line, 'request errored');
            return;
          }
          line.latency_ms = Date.now() - started;
          root.info(
            line,
            !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted',
          );
        };
        // An answer emits `close` once it has ended (after `finish`) or when it was cut.
        res.on('close', ended);
        res.on('error', ended);
      }
      runInApp(new RequestLogContext(this.app, root, requestId), next);
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
