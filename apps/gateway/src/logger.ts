import pino, { type Logger } from 'pino';

export type GatewayLogger = Logger;

/**
 * JSON lines in the platform's shape (`app`, `request_id`, `user_id`, `latency_ms`, `msg`), so
 * gateway lines and app lines of one request can be joined on `request_id`. Written
 * synchronously like the apps' (pino defaults): in the embedded default all apps share
 * stdout, and whole-line writes keep their lines from interleaving.
 */
export function createLogger(level: string): GatewayLogger {
  return pino({ level, base: { app: 'gateway' }, messageKey: 'msg' });
}
