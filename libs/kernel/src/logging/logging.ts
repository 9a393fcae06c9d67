import type { IncomingMessage } from 'node:http';
import type { Options } from 'pino-http';
import type { PlatformConfig } from '@media/core';

type LoggedRequest = IncomingMessage & { user?: { id?: string } };

/** JSON lines carrying `app`, `request_id`, `user_id` and latency (docs/api/contract.md §6). */
export function loggerOptions(app: string, log: PlatformConfig['log']): { pinoHttp: Options } {
  return {
    pinoHttp: {
      level: log.level,
      base: { app },
      messageKey: 'msg',
      genReqId: (req: IncomingMessage) => req.id ?? 'unknown',
      // The request's logger is bound to its id once, under `request_id`; `user_id` joins when the
      // caller is known (pino-http re-binds custom props at the end, so the id is not in them).
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'request_id', responseTime: 'latency_ms' },
      customProps: (req: IncomingMessage) => {
        const userId = (req as LoggedRequest).user?.id;
        return userId ? { user_id: userId } : {};
      },
      autoLogging: { ignore: (req: IncomingMessage) => /\/health\/(live|ready)$/.test(req.url ?? '') },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
  };
}
