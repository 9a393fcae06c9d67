import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { PlatformConfig } from '../config/platform-config';

type LoggedRequest = IncomingMessage & { user?: { id?: string } };

/** JSON lines carrying `app`, `request_id`, `user_id` and latency (CONTRACT §6). */
export function loggerOptions(app: string, config: Pick<PlatformConfig, 'LOG_LEVEL' | 'LOG_PRETTY'>): Params {
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      base: { app },
      messageKey: 'msg',
      genReqId: (req: IncomingMessage) => req.id ?? 'unknown',
      customAttributeKeys: { responseTime: 'latency_ms' },
      customProps: (req: IncomingMessage) => ({
        request_id: req.id,
        user_id: (req as LoggedRequest).user?.id,
      }),
      autoLogging: { ignore: (req: IncomingMessage) => /\/health\/(live|ready)$/.test(req.url ?? '') },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
  };
}
