import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnModuleInit,
} from '@nestjs/common';
import type { Request } from 'express';
import { retry, throwError, timer, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { DomainError } from '@media/core';

/** Seconds a client is told to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** 503 `database_unavailable` (docs/api/contract.md §2): the database cannot be reached right now. */
export class DatabaseUnavailable extends DomainError {
  constructor() {
    super(503, 'database_unavailable', 'The database is unavailable; retry shortly.', {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
}

/**
 * SQLSTATEs of a server that is going away or cannot take the session: admin/crash shutdown
 * (57P01, 57P02, the former is also pg_terminate_backend), cannot connect now (57P03, starting
 * up or shutting down), too many connections (53300), and the connection exception class 08.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket-level failures reaching the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** What pg and pg-pool throw without a code: a lost connection, an acquisition timeout. */
const MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout|Cannot use a pool after calling end)/;
/** A session lost while a query ran: the query may be run again on a new one. */
const LOST_STATES = new Set(['57P01', '57P02']);
const LOST_MESSAGES = /^(Connection terminated|Client has encountered a connection error)/;

interface Coded {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

/** The pg error under TypeORM's QueryFailedError (`driverError`), or the error itself. */
function driverErrorOf(error: unknown): Coded | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const coded = error as Coded;
  if (typeof coded.driverError === 'object' && coded.driverError !== null) return coded.driverError as Coded;
  return coded;
}

function matches(error: unknown, states: Set<string>, messages: RegExp, sockets: Set<string>): boolean {
  const driver = driverErrorOf(error);
  if (!driver) return false;
  const code = typeof driver.code === 'string' ? driver.code : '';
  if (states.has(code) || (states === UNAVAILABLE_STATES && code.startsWith('08'))) return true;
  if (sockets.has(code)) return true;
  if (typeof driver.message === 'string' && messages.test(driver.message)) return true;
  // Connecting to `localhost` tries every address: an AggregateError of ECONNREFUSEDs.
  if (Array.isArray(driver.errors))
    return driver.errors.some((inner) => matches(inner, states, messages, sockets));
  return false;
}

/** True for an error that means "the database cannot be reached now", not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return matches(error, UNAVAILABLE_STATES, MESSAGES, SOCKET_CODES);
}

/** True when the session died under a running query (the server ended it), so a read may be retried. */
export function isSessionLost(error: unknown): boolean {
  return matches(error, LOST_STATES, LOST_MESSAGES, new Set(['ECONNRESET', 'EPIPE']));
}

/**
 * The app's view of its database's availability: the first failure of an outage is logged (once,
 * not per request), and the first new connection after it ("reachable again").
 */
@Injectable()
export class DatabaseAvailability implements OnModuleInit {
  private readonly logger = new Logger('Database');
  private down = false;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    const pool = (this.dataSource.driver as unknown as { master?: NodeJS.EventEmitter }).master;
    pool?.on('connect', () => {
      if (!this.down) return;
      this.down = false;
      this.logger.log('database reachable again');
    });
  }

  /** Maps an unavailable-database error to 503 (logging the outage once); anything else is returned as is. */
  classify(error: unknown): unknown {
    if (error instanceof DatabaseUnavailable || !isDatabaseUnavailable(error)) return error;
    if (!this.down) {
      this.down = true;
      const driver = driverErrorOf(error);
      this.logger.warn(
        { code: driver?.code, reason: typeof driver?.message === 'string' ? driver.message : undefined },
        'database unavailable: answering 503 until it is reachable again',
      );
    }
    return new DatabaseUnavailable();
  }
}

/** How often, and after how long, a read is run again after its session was lost. */
const READ_RETRIES = 2;
const READ_RETRY_DELAY_MS = 100;

/**
 * Runs a GET or HEAD handler again when the database session died under it (a server restart,
 * pg_terminate_backend): a read has no effect to repeat. Writes are never retried here: the
 * transaction was rolled back, but the client decides (docs/api/contract.md §2's Retry-After).
 */
@Injectable()
export class ReadRetryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const method = context.switchToHttp().getRequest<Request>().method;
    if (method !== 'GET' && method !== 'HEAD') return next.handle();
    return next.handle().pipe(
      retry({
        count: READ_RETRIES,
        delay: (error: unknown) =>
          isSessionLost(error) ? timer(READ_RETRY_DELAY_MS) : throwError(() => error),
      }),
    );
  }
}
