import pino, { type Logger } from 'pino';

export type GatewayLogger = Logger;

/** A buffered logger writes once this many bytes of lines are waiting (whole lines, under a pipe's atomic 4 KiB)... */
const BUFFER_BYTES = 2048;
/** ...or this often, whichever comes first. */
const FLUSH_EVERY_MS = 250;

/**
 * JSON lines in the platform's shape (`app`, `request_id`, `user_id`, `latency_ms`, `msg`), so
 * gateway lines and app lines of one request can be joined on `request_id`. Written
 * synchronously like the apps' (pino defaults): in the embedded default all apps share
 * stdout, and whole-line writes keep their lines from interleaving. `buffered` (the gateway in a
 * process of its own): lines are gathered and written a few KB at a time, at the latest after
 * 250 ms and at exit, instead of one write per access log line (a tenth of a proxied request's
 * CPU); each write is whole lines, so GATEWAY_WORKERS sharing one stdout do not interleave.
 */
export function createLogger(
  level: string,
  { buffered = false }: { buffered?: boolean } = {},
): GatewayLogger {
  const options = { level, base: { app: 'gateway' }, messageKey: 'msg' };
  if (!buffered) return pino(options);
  // Written synchronously (no thread-pool write per batch); a chunk never grows past 4 KiB.
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: BUFFER_BYTES,
    maxWrite: 2 * BUFFER_BYTES,
    periodicFlush: FLUSH_EVERY_MS,
  });
  process.once('exit', () => destination.flushSync());
  return pino(options, destination);
}
