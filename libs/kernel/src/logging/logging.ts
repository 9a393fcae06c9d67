import type { IncomingMessage } from 'node:http';
import type { PlatformConfig } from '@media/core';
import type { AccessLogOptions, AppLoggerOptions } from './app-logger';

/** The probes, answered many times a minute: no access line. */
const PROBES = /\/health\/(live|ready)$/;

/** JSON lines carrying `app`, `request_id`, `user_id` and latency (docs/api/contract.md §6). */
export function loggerOptions(log: PlatformConfig['log']): {
  logger: AppLoggerOptions;
  access: AccessLogOptions;
} {
  return {
    logger: {
      level: log.level,
      messageKey: 'msg',
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    access: { ignore: (req: IncomingMessage) => PROBES.test(req.url ?? '') },
  };
}
